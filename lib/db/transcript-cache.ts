// The active context of the conversations this process served last, kept between turns
// so a turn reads only what was stored since (lib/db/transcript.ts decides when a copy
// may be used). Per database client, so tests and scripts that reopen the database
// never see another one's copies; the least recently used go first.
import type { Db } from "./client.ts";
import type { ClearingRecord, CompactionRecord, TranscriptMessage } from "../compression/types";

export type CachedContext = {
  /** The conversation row's versions and last sequence number the copy was read at. */
  contextVersion: number;
  historyVersion: number;
  lastSeq: number;
  /** Frozen records, shared by every transcript handed out from this copy. */
  compactions: readonly CompactionRecord[];
  clearings: readonly ClearingRecord[];
  messages: readonly TranscriptMessage[];
  /** The prompt its count belongs to (null: not counted yet). */
  systemPrompt: string | null;
  systemPromptTokens: number;
};

// An active context is at most a model window of text (≈0.5 MB at 128k tokens), so this
// bounds the memory at a few tens of MB for the conversations in use right now.
const MAX_CONVERSATIONS = 64;

const globalForCache = globalThis as unknown as { strataContexts?: WeakMap<Db, Map<string, CachedContext>> };

function contextsOf(db: Db): Map<string, CachedContext> {
  globalForCache.strataContexts ??= new WeakMap();
  let contexts = globalForCache.strataContexts.get(db);
  if (!contexts) {
    contexts = new Map();
    globalForCache.strataContexts.set(db, contexts);
  }
  return contexts;
}

export function cachedContext(db: Db, conversationId: string): CachedContext | undefined {
  return contextsOf(db).get(conversationId);
}

export function rememberContext(db: Db, conversationId: string, context: CachedContext): void {
  const contexts = contextsOf(db);
  // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
  contexts.delete(conversationId);
  contexts.set(conversationId, context);
  if (contexts.size > MAX_CONVERSATIONS) contexts.delete(contexts.keys().next().value!);
}
