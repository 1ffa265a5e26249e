import type { Db } from "./client.ts";
import { toCompactionRecord, toTranscriptMessage } from "./mappers.ts";
import { ownedConversation } from "./conversations.ts";
import { seqFilters, uncoveredRanges } from "./ranges.ts";
import { notFound } from "../errors.ts";
import type { Transcript } from "../compression/types";
import type { Message } from "./generated/client.ts";
import { span } from "../log/timing.ts";

const ACTIVE_COMPACTION = { supersededById: null, undoneAt: null } as const;

/**
 * Loads only the active context: active compactions plus the messages they do not
 * cover (and pinned ones). Reads never touch the covered history, so the cost stays
 * flat however long the conversation grows.
 */
export function loadTranscript(...args: Parameters<typeof readTranscript>): ReturnType<typeof readTranscript> {
  return span("load", () => readTranscript(...args));
}

async function readTranscript(
  db: Db,
  userId: string,
  conversationId: string,
  countSystemPrompt: (text: string) => number,
): Promise<{ transcript: Transcript; messageRows: Message[]; historyVersion: number }> {
  // Both at once (one round trip less per load): the compactions are used only once the
  // conversation is known to be the user's.
  const [conversation, compactionRows] = await Promise.all([
    db.conversation.findFirst({ where: ownedConversation(userId, conversationId) }),
    db.compaction.findMany({ where: { conversationId, ...ACTIVE_COMPACTION }, orderBy: { fromSeq: "asc" } }),
  ]);
  if (!conversation) throw notFound("conversation", conversationId);
  const gaps = uncoveredRanges({ fromSeq: 1, toSeq: Math.max(conversation.lastSeq, 1) }, compactionRows);
  const keptSeqs = compactionRows.flatMap((row) => row.keptSeqs ?? []);
  const messageRows = await db.message.findMany({
    // A failed reply is shown to the user but never sent back to the model.
    where: {
      conversationId,
      rewoundAt: null,
      status: { not: "error" },
      OR: [{ pinned: true }, ...(keptSeqs.length ? [{ seq: { in: keptSeqs } }] : []), ...seqFilters(gaps)],
    },
    orderBy: { seq: "asc" },
  });
  const transcript: Transcript = {
    conversationId,
    model: conversation.model,
    systemPrompt: conversation.systemPrompt,
    systemPromptTokens: conversation.systemPrompt ? countSystemPrompt(conversation.systemPrompt) : 0,
    // What the chat layer sends besides messages (tool definitions) is its to add.
    toolTokens: 0,
    // childIds stay empty: the engine reads them only on the records it creates, so
    // the hot path skips the query that would load them.
    compactions: compactionRows.map((row) => toCompactionRecord(row)),
    messages: messageRows.map(toTranscriptMessage),
    totalMessageCount: conversation.lastSeq,
  };
  return { transcript, messageRows, historyVersion: conversation.historyVersion };
}
