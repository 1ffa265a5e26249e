// Row → engine record and row → view conversions, kept in one place so every
// query returns the same shapes.
import { z } from "zod";
import type { Compaction, CompactionAttempt, Conversation, Message } from "./generated/client.ts";
import { deriveTitle } from "../compression/title";
import type { AttemptRecord, CompactionRecord, SummarySections, ToolCall, TranscriptMessage } from "../compression/types";
import { summarySectionsSchema } from "../compression/strategies/structured";
import { readToolContent } from "../mcp/content";
import type { AttemptView, CompactionView, ConversationView, ImportView, MessageStatus, MessageView, ToolOutcome } from "../views";
import type * as Db from "./generated/enums";
import type {
  CompactionKind,
  CompactionSource,
  CompactionTrigger,
  MessageRole,
  attemptOutcomeSchema,
  messageRoleSchema,
} from "../compression/types";

// The database's enums (prisma/schema.prisma), the code's types and the export file's
// schemas must hold the same values: a value added in one place only fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const enumsAgree: [
  Same<Db.MessageRole, MessageRole>,
  Same<Db.MessageStatus, MessageStatus>,
  Same<Db.CompactionKind, CompactionKind>,
  Same<Db.CompactionTrigger, CompactionTrigger>,
  Same<Db.CompactionSource, CompactionSource>,
  Same<Db.AttemptOutcome, AttemptRecord["outcome"]>,
  Same<z.infer<typeof messageRoleSchema>, MessageRole>,
  Same<z.infer<typeof attemptOutcomeSchema>, AttemptRecord["outcome"]>,
  Same<Db.ToolOutcome, ToolOutcome>,
  Same<Db.ImportState, ImportView["state"]>,
] = [true, true, true, true, true, true, true, true, true, true];
void enumsAgree;

const toolCallsSchema = z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() }));

/** Tool calls are JSON in the database: checked on the way out; a row that does not parse has none. */
export function toolCallsOf(row: Pick<Message, "toolCalls">): ToolCall[] {
  const parsed = toolCallsSchema.safeParse(row.toolCalls ?? []);
  return parsed.success ? parsed.data : [];
}

/** The columns a message of the active context is built from (the context load reads only these). */
export const TRANSCRIPT_MESSAGE_COLUMNS = [
  "seq", "role", "content", "tokenCount", "pinned", "toolCalls", "toolCallId", "toolName", "promptTokens", "completionTokens", "requestTokens",
] as const satisfies readonly (keyof Message)[];

export type TranscriptMessageRow = Pick<Message, (typeof TRANSCRIPT_MESSAGE_COLUMNS)[number]>;

export function toTranscriptMessage(row: TranscriptMessageRow): TranscriptMessage {
  const base = { seq: row.seq, content: row.content, tokens: row.tokenCount, pinned: row.pinned };
  switch (row.role) {
    case "assistant": {
      // Most replies call no tool: nothing to check then.
      const toolCalls = row.toolCalls == null ? [] : toolCallsOf(row);
      const usage =
        row.promptTokens != null && row.requestTokens != null
          ? { promptTokens: row.promptTokens, completionTokens: row.completionTokens ?? 0, requestTokens: row.requestTokens }
          : undefined;
      return { ...base, role: "assistant", ...(toolCalls.length ? { toolCalls } : {}), ...(usage ? { usage } : {}) };
    }
    case "tool":
      return { ...base, role: "tool", toolCallId: row.toolCallId ?? "", ...(row.toolName ? { toolName: row.toolName } : {}) };
    case "user":
      return { ...base, role: "user" };
    case "system":
      return { ...base, role: "system" };
  }
}

/** Sections are JSON in the database: checked on the way out like every JSON column. */
function sectionsOf(row: Pick<Compaction, "sections">): SummarySections | undefined {
  if (row.sections == null) return undefined;
  const parsed = summarySectionsSchema.safeParse(row.sections);
  return parsed.success ? parsed.data : undefined;
}

export function toCompactionRecord(row: Compaction & { children?: { id: string }[] }): CompactionRecord {
  const base = {
    id: row.id,
    level: row.level,
    fromSeq: row.fromSeq,
    toSeq: row.toSeq,
    summary: row.summary,
    ...(row.title != null ? { title: row.title } : {}),
    ...(row.outOfView != null ? { outOfView: row.outOfView } : {}),
    summaryTokens: row.summaryTokens,
    coveredMessageCount: row.coveredMessageCount,
    coveredTokens: row.coveredTokens,
    childIds: (row.children ?? []).map((child) => child.id),
    keptSeqs: row.keptSeqs ?? [],
    background: row.background,
    durationMs: row.durationMs,
    messagesBefore: row.messagesBefore,
    messagesAfter: row.messagesAfter,
    tokensBefore: row.tokensBefore,
    tokensAfter: row.tokensAfter,
    createdAt: row.createdAt,
  };
  if (row.kind === "truncation") return { ...base, kind: "truncation", trigger: "hard_limit", strategy: "truncation" };
  if (row.kind === "clearing") return { ...base, kind: "clearing", trigger: row.trigger, strategy: "clearing" };
  // A summary row always has a summary source; the enum column cannot hold anything else but "truncation" or "clearing".
  const strategy = row.strategy === "truncation" || row.strategy === "clearing" ? "model_provided" : row.strategy;
  const sections = sectionsOf(row);
  return {
    ...base,
    kind: "summary",
    trigger: row.trigger,
    strategy,
    ...(sections ? { sections } : {}),
    ...(row.summaryModel ? { summaryModel: row.summaryModel } : {}),
    ...(row.instructions ? { instructions: row.instructions } : {}),
  };
}

export function toMessageView(row: Message): MessageView {
  const base = {
    id: row.id,
    seq: row.seq,
    content: row.content,
    tokenCount: row.tokenCount,
    status: row.status,
    pinned: row.pinned,
    createdAt: row.createdAt.toISOString(),
  };
  switch (row.role) {
    case "assistant":
      return {
        ...base,
        role: "assistant",
        toolCalls: toolCallsOf(row),
        model: row.model,
        usage: row.promptTokens != null ? { promptTokens: row.promptTokens, completionTokens: row.completionTokens ?? 0 } : null,
        error: row.error,
        reasoning: row.reasoning,
      };
    case "tool":
      return {
        ...base,
        role: "tool",
        toolCallId: row.toolCallId ?? "",
        toolName: row.toolName,
        toolOutcome: row.toolOutcome,
        toolDurationMs: row.toolDurationMs,
        toolServer: row.toolServer,
        toolContent: readToolContent(row.toolContent),
      };
    case "user":
      return { ...base, role: "user", error: row.error };
    case "system":
      return { ...base, role: "system" };
  }
}

/** What a compaction row says, as every outward shape (view, export) carries it. */
export function compactionColumns(row: Compaction) {
  return {
    level: row.level,
    kind: row.kind,
    trigger: row.trigger,
    strategy: row.strategy,
    fromSeq: row.fromSeq,
    toSeq: row.toSeq,
    summary: row.summary,
    title: row.title,
    outOfView: row.outOfView,
    sections: sectionsOf(row) ?? null,
    summaryModel: row.summaryModel,
    instructions: row.instructions,
    summaryTokens: row.summaryTokens,
    coveredMessageCount: row.coveredMessageCount,
    coveredTokens: row.coveredTokens,
    tokensBefore: row.tokensBefore,
    tokensAfter: row.tokensAfter,
    messagesBefore: row.messagesBefore,
    messagesAfter: row.messagesAfter,
    durationMs: row.durationMs,
    background: row.background,
  };
}

/** What a compaction holds one level down: its children, and the messages they cover between them. */
export type ChildrenOf = { count: number; coveredMessages: number };
const NO_CHILDREN: ChildrenOf = { count: 0, coveredMessages: 0 };

export function toCompactionView(row: Compaction, children: ChildrenOf = NO_CHILDREN): CompactionView {
  // A summary stored before titles existed gets one derived from its text, so a collapsed tree of an old conversation reads too.
  const title = row.title ?? (row.kind === "summary" ? deriveTitle(row.summary) : null);
  const looseMessageCount = children.count > 0 ? Math.max(0, row.coveredMessageCount - children.coveredMessages) : row.coveredMessageCount;
  return { id: row.id, ...compactionColumns(row), title, createdAt: row.createdAt.toISOString(), childCount: children.count, looseMessageCount };
}

export function toConversationView(row: Conversation, messageCount: number): ConversationView {
  return {
    id: row.id,
    title: row.title,
    model: row.model,
    systemPrompt: row.systemPrompt,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    messageCount,
    pinnedAt: row.pinnedAt?.toISOString() ?? null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    source: row.sourceConversationId
      ? { conversationId: row.sourceConversationId, compactionId: row.sourceCompactionId, title: null }
      : null,
  };
}

export function toAttemptView(row: CompactionAttempt): AttemptView {
  return {
    id: row.id,
    trigger: row.trigger,
    strategy: row.strategy,
    outcome: row.outcome,
    reason: row.reason,
    error: row.error,
    model: row.model,
    background: row.background,
    compactionId: row.compactionId,
    messagesBefore: row.messagesBefore,
    messagesAfter: row.messagesAfter,
    tokensBefore: row.tokensBefore,
    tokensAfter: row.tokensAfter,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The columns of an attempt, as stored and as shown: what only some outcomes have is null for the others. */
export function attemptColumns(attempt: AttemptRecord) {
  const applied = attempt.outcome === "applied" ? attempt : null;
  return {
    trigger: attempt.trigger,
    strategy: attempt.strategy,
    outcome: attempt.outcome,
    reason: attempt.reason,
    error: attempt.outcome === "failed" ? (attempt.error ?? null) : null,
    model: attempt.model ?? null,
    background: attempt.background,
    compactionId: applied?.compactionId ?? null,
    messagesBefore: attempt.messagesBefore,
    messagesAfter: applied?.messagesAfter ?? null,
    tokensBefore: attempt.tokensBefore,
    tokensAfter: applied?.tokensAfter ?? null,
    durationMs: Math.round(attempt.durationMs),
  };
}

/** An attempt that has not been (or could not be) stored, for showing right away. */
export function attemptRecordToView(attempt: AttemptRecord, createdAt = new Date()): AttemptView {
  return { id: "", ...attemptColumns(attempt), createdAt: createdAt.toISOString() };
}
