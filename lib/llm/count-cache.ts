// Token counts remembered by content, for texts that are counted again and again: a
// conversation's system prompt (every turn, every context measure) and an oversized
// message (the engine elides it on every measure of every turn). Keyed by a SHA-256 of
// the text, so that a thousand 50,000-character prompts cost a thousand short keys,
// not 100 MB of keys. Least recently used entries go first.
import { createHash } from "node:crypto";

export class ContentCache<V> {
  // A Map iterates in insertion order: re-inserting on use makes the first key the least recently used.
  private readonly entries = new Map<string, V>();

  constructor(private readonly limit: number) {}

  /** The key of a text (with what else its value depends on, e.g. the encoding). */
  static key(text: string, scope = ""): string {
    return `${scope}:${createHash("sha256").update(text).digest("base64")}`;
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Counts of texts asked for again and again; the promise is kept, so simultaneous callers count a new text once. */
export class CountCache {
  private readonly counts: ContentCache<Promise<number>>;

  constructor(limit: number) {
    this.counts = new ContentCache(limit);
  }

  count(text: string, counter: (text: string) => Promise<number>): Promise<number> {
    const key = ContentCache.key(text);
    const known = this.counts.get(key);
    if (known) return known;
    const counted = counter(text);
    this.counts.set(key, counted);
    // A failed count is not remembered: the next call counts again.
    counted.catch(() => this.counts.get(key) === counted && this.counts.delete(key));
    return counted;
  }

  get size(): number {
    return this.counts.size;
  }
}
