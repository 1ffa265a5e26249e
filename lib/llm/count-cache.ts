// Token counts remembered by content, for texts that are counted again and again (a
// conversation's system prompt: every turn, every context measure). Keyed by a SHA-256
// of the text, so that a thousand 50,000-character prompts cost a thousand short keys,
// not 100 MB of keys; the promise is kept, so simultaneous turns count a new text once.
import { createHash } from "node:crypto";

export class CountCache {
  // A Map iterates in insertion order: re-inserting on use makes the first key the least recently used.
  private readonly counts = new Map<string, Promise<number>>();

  constructor(private readonly limit: number) {}

  count(text: string, counter: (text: string) => Promise<number>): Promise<number> {
    const key = createHash("sha256").update(text).digest("base64");
    const known = this.counts.get(key);
    if (known) {
      this.counts.delete(key);
      this.counts.set(key, known);
      return known;
    }
    const counted = counter(text);
    this.counts.set(key, counted);
    // A failed count is not remembered: the next call counts again.
    counted.catch(() => this.counts.get(key) === counted && this.counts.delete(key));
    if (this.counts.size > this.limit) this.counts.delete(this.counts.keys().next().value!);
    return counted;
  }

  get size(): number {
    return this.counts.size;
  }
}
