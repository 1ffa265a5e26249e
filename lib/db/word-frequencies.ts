// How many of a conversation's compressed messages contain each word automatic recall
// has looked up, kept between turns. Every turn searches the compressed originals for
// the user's message once anything is compressed; most of its words are ordinary ones
// ("plan", "check") that most compressed messages contain and that can decide nothing.
// With their counts at hand, a turn searches only by its telling words, and makes no
// search at all when it has none. The counts belong to one compressed set: a new,
// merged or undone compaction is another set (`compressedSet`, the ids of the active
// records), and its counts are read afresh. Per database client and owner, the least
// recently used conversation first to go.
import type { Db } from "./client.ts";

/** What the counts were taken over, and the counts. */
type Frequencies = {
  compressedSet: string;
  /** The compressed messages (the idf's n). */
  total: number;
  /** The lexemes each looked-up word stands for (none: a stop word). */
  lexemesOf: Map<string, readonly string[]>;
  /** Compressed messages containing each lexeme. */
  documents: Map<string, number>;
};

const MAX_CONVERSATIONS = 256;
// A conversation whose users paste pages would otherwise grow its map without bound.
const MAX_WORDS = 20_000;

const globalForFrequencies = globalThis as unknown as { strataWordFrequencies?: WeakMap<Db, Map<string, Frequencies>> };

function table(db: Db): Map<string, Frequencies> {
  const all = (globalForFrequencies.strataWordFrequencies ??= new WeakMap());
  let forDb = all.get(db);
  if (!forDb) all.set(db, (forDb = new Map()));
  return forDb;
}

const keyOf = (userId: string, conversationId: string) => `${userId}\u0000${conversationId}`;

/** The counts kept for this compressed set, or null (none kept, or kept for another set). */
export function keptFrequencies(db: Db, userId: string, conversationId: string, compressedSet: string): Frequencies | null {
  const forDb = table(db);
  const key = keyOf(userId, conversationId);
  const kept = forDb.get(key);
  if (!kept || kept.compressedSet !== compressedSet) return null;
  // Most recently used last.
  forDb.delete(key);
  forDb.set(key, kept);
  return kept;
}

/**
 * Adds counts read for `compressedSet` (replacing counts of another set), and answers
 * every count known for the set now.
 */
export function keepFrequencies(
  db: Db,
  userId: string,
  conversationId: string,
  compressedSet: string,
  read: Omit<Frequencies, "compressedSet">,
): Frequencies {
  const forDb = table(db);
  const key = keyOf(userId, conversationId);
  const kept = forDb.get(key);
  const base = kept?.compressedSet === compressedSet ? kept : null;
  const merged: Frequencies = {
    compressedSet,
    total: read.total,
    lexemesOf: new Map([...(base?.lexemesOf ?? []), ...read.lexemesOf]),
    documents: new Map([...(base?.documents ?? []), ...read.documents]),
  };
  forDb.delete(key);
  // Past the bound, only this read's counts are kept (the answer still has them all).
  forDb.set(key, merged.lexemesOf.size <= MAX_WORDS ? merged : { compressedSet, ...read });
  while (forDb.size > MAX_CONVERSATIONS) forDb.delete(forDb.keys().next().value!);
  return merged;
}
