import type { Db } from "./client.ts";
import { toCompactionRecord, TRANSCRIPT_MESSAGE_COLUMNS, type TranscriptMessageRow } from "./mappers.ts";
import { seqFilters, uncoveredRanges } from "./ranges.ts";
import { cachedContext, extendsTo, frozenMessage, isAt, rememberContext, type CachedContext, type ConversationHead } from "./context-cache.ts";
import { notFound } from "../errors.ts";
import type { ClearingRecord, CompactionRecord, Transcript } from "../compression/types";
import { span } from "../log/timing.ts";

const ACTIVE_COMPACTION = { supersededById: null, undoneAt: null } as const;
const MESSAGE_SELECT = Object.fromEntries(TRANSCRIPT_MESSAGE_COLUMNS.map((column) => [column, true])) as Record<
  (typeof TRANSCRIPT_MESSAGE_COLUMNS)[number],
  true
>;
// Above any sequence number: the head read then returns no message.
const NO_MESSAGES_AFTER = 2_147_483_647;

/**
 * Loads only the active context: active compactions plus the messages they do not
 * cover (and pinned ones). Reads never touch the covered history, so the cost stays
 * flat however long the conversation grows.
 *
 * This process keeps the last context it loaded per conversation
 * (./context-cache.ts, which says when the copy may be used) and, on the next turn,
 * reads only the conversation row and the messages stored after it, in one statement;
 * otherwise the context is read afresh. So another instance's edit, rewind, pin or compaction is seen
 * on the next turn here, and a turn never sends a stale context.
 */
export function loadTranscript(...args: Parameters<typeof readTranscript>): ReturnType<typeof readTranscript> {
  return span("load", () => readTranscript(...args));
}

/**
 * `known`: the conversation row as a statement of the caller's left it a moment ago (the
 * turn's own, which stored the user's message with the turn lease). When the kept copy
 * is exactly at that row, nothing is read: the copy is what a read would return then,
 * and a change made since is one a read an instant earlier would have missed too (the
 * lease keeps rewinds and edits out of the turn; a compaction saved meanwhile is read by
 * the next turn, or by any compaction here, which always reads afresh under its lock).
 */
async function readTranscript(
  db: Db,
  userId: string,
  conversationId: string,
  countSystemPrompt: (text: string) => Promise<number>,
  known?: ConversationHead,
): Promise<{ transcript: Transcript; historyVersion: number }> {
  const cached = cachedContext(db, conversationId);
  const { head, newer } =
    known && cached && isAt(cached, known)
      ? { head: known, newer: [] }
      : await readHead(db, userId, conversationId, cached?.lastSeq ?? NO_MESSAGES_AFTER);
  const current =
    cached && extendsTo(cached, head)
      ? { ...cached, lastSeq: head.lastSeq, messages: [...cached.messages, ...newer.map(frozenMessage)] }
      : await readActive(db, conversationId, head);
  const systemPromptTokens =
    current.systemPrompt === head.systemPrompt ? current.systemPromptTokens : head.systemPrompt ? await countSystemPrompt(head.systemPrompt) : 0;
  rememberContext(db, conversationId, { ...current, systemPrompt: head.systemPrompt, systemPromptTokens });
  const transcript: Transcript = {
    conversationId,
    model: head.model,
    systemPrompt: head.systemPrompt,
    systemPromptTokens,
    // What the chat layer sends besides messages (tool definitions) is its to add.
    toolTokens: 0,
    // Copies: the records themselves are frozen, shared with the cached context.
    compactions: [...current.compactions],
    ...(current.clearings.length ? { clearings: [...current.clearings] } : {}),
    messages: [...current.messages],
    totalMessageCount: head.lastSeq,
  };
  return { transcript, historyVersion: head.historyVersion };
}

/**
 * The conversation row (the owner checked by it) and the messages of the active context
 * numbered above `after`, in one statement, so both come from one snapshot.
 */
async function readHead(db: Db, userId: string, conversationId: string, after: number): Promise<{ head: ConversationHead; newer: TranscriptMessageRow[] }> {
  const rows = await db.$queryRaw<(ConversationHead & { [K in keyof TranscriptMessageRow]: TranscriptMessageRow[K] | null })[]>`
    SELECT c.model, c."systemPrompt", c."lastSeq", c."historyVersion", c."contextVersion",
           m.seq, m.role, m.content, m."tokenCount", m.pinned, m."toolCalls", m."toolCallId", m."toolName",
           m."promptTokens", m."completionTokens", m."requestTokens"
    FROM "Conversation" c
    LEFT JOIN "Message" m ON m."conversationId" = c.id AND m.seq > ${after} AND m."rewoundAt" IS NULL AND m.status <> 'error'
    WHERE c.id = ${conversationId} AND c."userId" = ${userId}
    ORDER BY m.seq`;
  const first = rows[0];
  if (!first) throw notFound("conversation", conversationId);
  const head: ConversationHead = {
    model: first.model,
    systemPrompt: first.systemPrompt,
    lastSeq: first.lastSeq,
    historyVersion: first.historyVersion,
    contextVersion: first.contextVersion,
  };
  const newer = rows.filter((row): row is ConversationHead & TranscriptMessageRow => row.seq !== null);
  return { head, newer };
}

/**
 * The whole active context as of `head` (read before it, so a change made meanwhile
 * leaves the copy older than its version says, never newer: the next turn reads again).
 */
async function readActive(db: Db, conversationId: string, head: ConversationHead): Promise<CachedContext> {
  const rows = await db.compaction.findMany({ where: { conversationId, ...ACTIVE_COMPACTION }, orderBy: { fromSeq: "asc" } });
  // A clearing covers nothing: its messages stay in the context, shown as notes by the engine.
  const compactionRows = rows.filter((row) => row.kind !== "clearing");
  const clearingRows = rows.filter((row) => row.kind === "clearing");
  const gaps = uncoveredRanges({ fromSeq: 1, toSeq: Math.max(head.lastSeq, 1) }, compactionRows);
  const keptSeqs = compactionRows.flatMap((row) => row.keptSeqs ?? []);
  const messageRows = await db.message.findMany({
    // A failed reply is shown to the user but never sent back to the model.
    where: {
      conversationId,
      rewoundAt: null,
      status: { not: "error" },
      seq: { lte: head.lastSeq },
      OR: [{ pinned: true }, ...(keptSeqs.length ? [{ seq: { in: keptSeqs } }] : []), ...seqFilters(gaps)],
    },
    orderBy: { seq: "asc" },
    select: MESSAGE_SELECT,
  });
  return {
    contextVersion: head.contextVersion,
    historyVersion: head.historyVersion,
    lastSeq: head.lastSeq,
    // childIds stay empty: the engine reads them only on the records it creates, so
    // the hot path skips the query that would load them.
    compactions: compactionRows.map((row) => Object.freeze(toCompactionRecord(row)) as CompactionRecord),
    clearings: clearingRows.map((row) => Object.freeze(toCompactionRecord(row)) as ClearingRecord),
    messages: messageRows.map(frozenMessage),
    // Counted by the caller against the row's prompt.
    systemPrompt: null,
    systemPromptTokens: 0,
  };
}
