// The active context of the conversations this process served last, kept between turns
// so a turn reads only what was stored since. This module owns the copy and the rule
// that says when it may be used: a copy is current at a conversation row whose
// contextVersion (moved by a database trigger on every change to the context other than
// a new message, by any process) and historyVersion are the ones it was read at; new
// messages are read after its lastSeq, or added by the turn that stored them
// (keepStored). Anything else reads the context afresh (lib/db/transcript.ts). Per
// database client, so tests and scripts that reopen the database never see another
// one's copies; the least recently used go first.
import type { Db } from "./client.ts";
import type { Message } from "./generated/client.ts";
import { toTranscriptMessage, type TranscriptMessageRow } from "./mappers.ts";
import type { ClearingRecord, CompactionRecord, TranscriptMessage } from "../compression/types";

/** The conversation row as far as the active context goes, as one statement read or left it. */
export type ConversationHead = { model: string; systemPrompt: string; lastSeq: number; historyVersion: number; contextVersion: number };

/** Messages one statement stored, and the conversation row as that statement left it. */
export type StoredMessages = { rows: Message[]; head: ConversationHead };

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

/**
 * What the copies may hold together, in characters of text plus a per-record allowance for
 * the objects around it (≈ bytes). Bounded by size, not by count: an instance serving a few
 * hundred conversations at once would otherwise read every turn's whole context again,
 * while one 128k-token context is only about half a megabyte of text.
 */
export const MAX_CACHED_SIZE = 64 * 1024 * 1024;
const RECORD_OVERHEAD = 256;

type Copies = { contexts: Map<string, { context: CachedContext; size: number }>; size: number };

const globalForCache = globalThis as unknown as { strataContexts?: WeakMap<Db, Copies> };

function copiesOf(db: Db): Copies {
  globalForCache.strataContexts ??= new WeakMap();
  let copies = globalForCache.strataContexts.get(db);
  if (!copies) {
    copies = { contexts: new Map(), size: 0 };
    globalForCache.strataContexts.set(db, copies);
  }
  return copies;
}

function sizeOf(context: CachedContext): number {
  let size = RECORD_OVERHEAD;
  for (const message of context.messages) size += RECORD_OVERHEAD + message.content.length;
  for (const record of [...context.compactions, ...context.clearings]) size += RECORD_OVERHEAD + record.summary.length;
  return size;
}

export function cachedContext(db: Db, conversationId: string): CachedContext | undefined {
  return copiesOf(db).contexts.get(conversationId)?.context;
}

export function rememberContext(db: Db, conversationId: string, context: CachedContext): void {
  const copies = copiesOf(db);
  forget(copies, conversationId);
  // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
  const size = sizeOf(context);
  copies.contexts.set(conversationId, { context, size });
  copies.size += size;
  while (copies.size > MAX_CACHED_SIZE && copies.contexts.size > 1) forget(copies, copies.contexts.keys().next().value!);
}

function forget(copies: Copies, conversationId: string): void {
  const entry = copies.contexts.get(conversationId);
  if (!entry) return;
  copies.contexts.delete(conversationId);
  copies.size -= entry.size;
}

/** Nothing but new messages changed the context since the copy was read: it holds up to `head`, given what came after it. */
export function extendsTo(context: CachedContext, head: ConversationHead): boolean {
  return context.contextVersion === head.contextVersion && context.historyVersion === head.historyVersion && context.lastSeq <= head.lastSeq;
}

/** The copy is exactly the context at `head`: a load at that row needs no read. */
export function isAt(context: CachedContext, head: ConversationHead): boolean {
  return extendsTo(context, head) && context.lastSeq === head.lastSeq;
}

/** What the active context leaves out of the messages after the compactions (see readHead's join, readActive's filter). */
function inActiveContext(row: { rewoundAt: Date | null; status: string }): boolean {
  return row.rewoundAt === null && row.status !== "error";
}

export function frozenMessage(row: TranscriptMessageRow): TranscriptMessage {
  return Object.freeze(toTranscriptMessage(row));
}

/**
 * Messages one statement stored (numbered `head.lastSeq` and below, bumped by it) are
 * added to this process's copy of the context when the copy was current just before
 * them; otherwise the copy is left as it is and the next load reads what it lacks. The
 * turn calls this for what it stores, so its next load (and the next turn's) reads
 * nothing more; a store that skips it costs the next load one read, never a stale copy.
 */
export function keepStored(db: Db, conversationId: string, { rows, head }: StoredMessages): void {
  const cached = cachedContext(db, conversationId);
  if (!cached || !isAt(cached, { ...head, lastSeq: head.lastSeq - rows.length })) return;
  const added = rows.filter(inActiveContext).map(frozenMessage);
  rememberContext(db, conversationId, { ...cached, lastSeq: head.lastSeq, messages: [...cached.messages, ...added] });
}
