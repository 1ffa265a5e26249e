// Serializable shapes the server hands to the browser (server actions, route handlers).
// Dates are ISO strings so they cross the RSC boundary and JSON alike.
import { z } from "zod";
import type { BudgetAdjustment } from "./compression/budget";
import type { CompactionKind, CompactionSource, CompactionTrigger, ContextBreakdown, SummarySections, ToolCall } from "./compression/types";
import type { ToolContent } from "./mcp/content";

export const toolOutcomeSchema = z.enum(["done", "failed", "denied"]);
/** How a tool call ended: it ran (done), it ran and failed, or the user refused it. */
export type ToolOutcome = z.infer<typeof toolOutcomeSchema>;

export const messageStatusSchema = z.enum(["complete", "streaming", "stopped", "error"]);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

type MessageViewBase = {
  id: string;
  seq: number;
  content: string;
  tokenCount: number;
  status: MessageStatus;
  pinned: boolean;
  createdAt: string;
  /** Set when this place has more than one version (lib/db/versions.ts): every version's id, oldest first, and which one this is. */
  versions?: MessageVersions;
};

/** `elsewhere`: messages after the other versions, kept on their branches and hidden while this one is shown. */
export type MessageVersions = { ids: string[]; current: number; elsewhere: number };

export type MessageView =
  | (MessageViewBase & { role: "system" })
  | (MessageViewBase & {
      role: "user";
      /** Why the model gave no reply to it (it failed before any text); absent or null when it has one or is being retried. */
      error?: string | null;
    })
  | (MessageViewBase & {
      role: "assistant";
      toolCalls: ToolCall[];
      model: string | null;
      usage: { promptTokens: number; completionTokens: number } | null;
      error: string | null;
      /** The model's thinking before the reply: shown folded, never sent to a model. */
      reasoning: string | null;
    })
  | (MessageViewBase & {
      role: "tool";
      toolCallId: string;
      toolName: string | null;
      /** Null on results stored before outcomes were recorded. */
      toolOutcome: ToolOutcome | null;
      toolDurationMs: number | null;
      /** The tool server that ran the call; null for a built-in tool. */
      toolServer: string | null;
      /** A tool server's content blocks (images, resources) when its answer held more than text. */
      toolContent: ToolContent | null;
    });

export type CompactionView = {
  id: string;
  level: number;
  kind: CompactionKind;
  trigger: CompactionTrigger;
  strategy: CompactionSource;
  fromSeq: number;
  toSeq: number;
  summary: string;
  /** The gist in a few words; null on compactions from before titles (and on truncations). */
  title: string | null;
  /** Set once the summary has left the model's view: what the request carries instead (null: in view). */
  outOfView: string | null;
  sections: SummarySections | null;
  summaryModel: string | null;
  instructions: string | null;
  summaryTokens: number;
  coveredMessageCount: number;
  coveredTokens: number;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  durationMs: number;
  background: boolean;
  createdAt: string;
  /** Lower-level compactions merged into this one. */
  childCount: number;
  /** Original messages it covers that none of those children does (a fold's new messages). */
  looseMessageCount: number;
};

/** The way down the tree to one message: the compactions covering it, outermost first. */
export type TreePathView = {
  seq: number;
  /** Active compactions holding `seq`, from the top-level one down to the lowest (empty when it is shown at the top level). */
  path: { id: string; level: number; fromSeq: number; toSeq: number }[];
};

/** A path with the first page of what each of its compactions replaced: the timeline opens it with one request. */
export type TreeOpeningView = TreePathView & { pages: Record<string, { items: TimelineItem[]; nextAfterSeq: number | null }> };

/** One row of the chat timeline: a message, or a compaction standing where its messages were. */
export type TimelineItem =
  | { type: "message"; message: MessageView }
  | { type: "compaction"; compaction: CompactionView }
  /** A compaction its owner undid: it stands, marked undone, above the messages it gave back, and holds none of them. */
  | { type: "undone"; compaction: CompactionView; undone: UndoneMark };

/** A pinned message as the pinned list shows it. */
export type PinnedEntryView = { seq: number; role: MessageView["role"]; firstLine: string };

/** Who undid a compaction ("Undo this compaction") and when. */
export type UndoneMark = { at: string; by: string };

/** An undo as the Activity panel lists it. */
export type UndoneView = UndoneMark & {
  compactionId: string;
  kind: CompactionKind;
  level: number;
  fromSeq: number;
  toSeq: number;
  title: string | null;
};

export type ConversationSummary = {
  id: string;
  title: string;
  model: string;
  updatedAt: string;
  messageCount: number;
  /** Organise (lib/db/organise.ts): when it was pinned to the top / archived; null when not. */
  pinnedAt: string | null;
  archivedAt: string | null;
};

/** One page of the sidebar's list (lib/db/organise.ts). */
export type ConversationPage = {
  /** The pinned group, whole (on the first page of the main list only). */
  pinned: ConversationSummary[];
  items: ConversationSummary[];
  /** Pass back for the next page; null at the end. */
  next: string | null;
};

export type ConversationView = ConversationSummary & {
  systemPrompt: string;
  createdAt: string;
  /** Started from a summary of another conversation ("New conversation from this summary"). */
  source: ConversationSource | null;
};

/** The conversation (and compaction) a conversation was continued from; title null once it is gone. */
export type ConversationSource = { conversationId: string; compactionId: string | null; title: string | null };

export type AttemptView = {
  id: string;
  trigger: CompactionTrigger;
  strategy: CompactionSource;
  outcome: "applied" | "failed" | "skipped";
  reason: string;
  error: string | null;
  model: string | null;
  background: boolean;
  compactionId: string | null;
  messagesBefore: number;
  messagesAfter: number | null;
  tokensBefore: number;
  tokensAfter: number | null;
  durationMs: number;
  createdAt: string;
};

/**
 * Background compaction of a conversation not finished yet: a pg-boss job (queued,
 * running, or waiting to retry after a failure) or a run in this process (PGlite, tests).
 */
export type BackgroundWorkView = {
  state: "queued" | "running" | "retrying";
  where: "queue" | "in-process";
  /** When it was queued, or when it started running. */
  since: string;
  /** 1 for the first try; retries count up. */
  attempt: number;
  maxAttempts: number | null;
  /** When a job waiting to retry becomes due. */
  nextRetryAt: string | null;
};

/** The Activity panel: work under way first, then the attempts (newest first). */
export type ActivityView = { background: BackgroundWorkView[]; attempts: AttemptView[]; undone: UndoneView[] };

/** The context now, and the figures that apply to this conversation's model (after any clamping). */
export type ContextMeterView = ContextBreakdown & {
  /** The model the meter measured for (its window is `contextWindow`, the settings' overrides applied). */
  model: string;
  threshold: number;
  preemptiveThreshold: number;
  /** The latest share a pre-emptive compaction that would free little waits until (see ContextBudget). */
  preemptiveLatest: number;
  hardLimit: number;
  reserve: number;
  summaryMaxTokens: number;
  /** Settings that cannot work at this window as configured, and what is used instead. */
  adjustments: BudgetAdjustment[];
};

/** A personal API token as its owner sees it: never the token itself, only its first characters. */
export type TokenView = {
  id: string;
  name: string;
  start: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
};

/** A signed-in session of the user, as the account page lists it (never its token). */
export type SessionView = {
  id: string;
  userAgent: string | null;
  createdAt: string;
  /** When the session was last extended (at most once a day, as it is used). */
  lastActiveAt: string;
  current: boolean;
};

/** A piece of a search snippet: `hit` marks the words that matched. Rendered as text. */
export type SnippetPart = { text: string; hit: boolean };

type SearchHitBase = {
  conversationId: string;
  conversationTitle: string;
  /** Archived conversations are searched too; the hit says so. */
  conversationArchived: boolean;
  rank: number;
  createdAt: string;
  snippet: SnippetPart[];
  /** True when compression replaced it in the model's view (it sits inside a compaction). */
  compressed: boolean;
  /** The fragment that opens it in the conversation: `m-SEQ` or `s-FROMSEQ-lLEVEL`. */
  anchor: string;
};

export type SearchHit =
  | (SearchHitBase & { kind: "message"; messageId: string; seq: number; role: string })
  | (SearchHitBase & { kind: "summary"; compactionId: string; level: number; fromSeq: number; toSeq: number });

/** An import of a JSON export, as its owner polls it (GET /api/imports/:id). */
export type ImportView = { id: string; bytes: number; messagesDone: number; createdAt: string } & (
  | { state: "receiving" | "queued" | "running" }
  | { state: "done"; conversationId: string }
  | { state: "failed"; error: string }
);
