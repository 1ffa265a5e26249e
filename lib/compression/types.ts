// The compression engine's vocabulary. Pure data: no Next.js, Prisma or network.
// The conversation layer (lib/chat) loads a Transcript from the database, hands it
// to the AutoCompressionManager, and saves the returned CompressionChange in one
// transaction. It never looks inside the decision.
import { z } from "zod";
import { STRATEGIES } from "./settings";

export type ToolCall = { id: string; name: string; arguments: string };

type MessageBase = {
  seq: number;
  content: string;
  /** tiktoken count of this message as sent (content + role/tool-call overhead), stored at write time. */
  tokens: number;
  pinned: boolean;
};

export type TranscriptMessage =
  | (MessageBase & { role: "system" })
  | (MessageBase & { role: "user" })
  | (MessageBase & {
      role: "assistant";
      toolCalls?: ToolCall[];
      /** API-reported usage of the call that produced this message and our own estimate of that prompt. */
      usage?: { promptTokens: number; completionTokens: number; requestTokens: number };
    })
  | (MessageBase & {
      role: "tool";
      toolCallId: string;
      toolName?: string;
      /**
       * Set on a result as the model sees it when that differs from what is stored (see
       * lib/compression/tool-view.ts): "cut" to its head and tail, or "cleared" to a note.
       * `content` and `tokens` are then the shown ones; `storedTokens` what the whole cost.
       */
      shown?: { as: "cut" | "cleared"; storedTokens: number };
    });

export type MessageRole = TranscriptMessage["role"];
/** The roles as a schema for files read from outside (the export file); matches MessageRole (lib/db/mappers.ts). */
export const messageRoleSchema = z.enum(["system", "user", "assistant", "tool"]);

// Each list once, as a schema (the export file parses with these) with its type derived;
// the Prisma enums of the same names must list the same values (checked in lib/db/mappers.ts).
export const compactionKindSchema = z.enum(["summary", "truncation", "clearing"]);
export type CompactionKind = z.infer<typeof compactionKindSchema>;
export const compactionTriggerSchema = z.enum(["auto", "manual", "tool", "hard_limit"]);
export type CompactionTrigger = z.infer<typeof compactionTriggerSchema>;
export type StrategyName = (typeof STRATEGIES)[number];
/** What produced a compaction's text: a strategy, the chat model's own summary, truncation, or clearing old tool output. */
export const compactionSourceSchema = z.enum([...STRATEGIES, "model_provided", "truncation", "clearing"]);
export type CompactionSource = z.infer<typeof compactionSourceSchema>;

export type SummarySections = {
  goals: string[];
  decisions: string[];
  completed: string[];
  openItems: string[];
  facts: string[];
};

type CompactionBase = {
  id: string;
  level: number;
  fromSeq: number;
  toSeq: number;
  /** The text the model sees in place of the range (for a truncation: what could be kept of it). */
  summary: string;
  /** The gist in a few words (absent on records from before titles, and on truncations). */
  title?: string;
  /**
   * Set when the summary has left the model's view: what the request carries instead of
   * its text (a line with its range and title, and the specifics it still has room for;
   * empty: nothing). It stays active in the tree and is never merged again.
   */
  outOfView?: string;
  summaryTokens: number;
  coveredMessageCount: number;
  coveredTokens: number;
  /** The lower-level compactions a level ≥ 2 record merged. */
  childIds: string[];
  /**
   * Messages inside the range that this record does NOT replace: they were pinned (or
   * held beside a lower compaction) when it was made, so they stay in the model's view
   * even after they are unpinned.
   */
  keptSeqs: number[];
  background: boolean;
  durationMs: number;
  /** What the summary model call(s) that wrote it cost, as the server reported (absent: no call, or no report). */
  usage?: CallUsage;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  createdAt: Date;
};

/** A compaction as the engine sees it: a summary written for the range, or the last-resort cut. */
export type CompactionRecord =
  | (CompactionBase & {
      kind: "summary";
      trigger: CompactionTrigger;
      strategy: StrategyName | "model_provided";
      sections?: SummarySections;
      summaryModel?: string;
      instructions?: string;
    })
  | (CompactionBase & {
      kind: "truncation";
      trigger: "hard_limit";
      strategy: "truncation";
      /**
       * The truncation before this one, which it takes the place of: that one's children
       * become this one's and it is withdrawn, so that truncations never nest in a chain
       * one level per cut (a summarizer down for a long conversation would make one).
       */
      absorbsId?: string;
    })
  /**
   * Old tool results cleared from the model's view (level 0): every tool result in the
   * range but `keptSeqs` is sent as a one-line note, its call as it was. It replaces no
   * message and covers nothing: the messages stay in the transcript, so it lives beside
   * the summaries (Transcript.clearings), never among them. `childIds`: earlier
   * clearings it absorbed. `summary`: what the timeline says about it.
   */
  | (CompactionBase & { kind: "clearing"; trigger: CompactionTrigger; strategy: "clearing" });

export type SummaryCompaction = Extract<CompactionRecord, { kind: "summary" }>;
export type ClearingRecord = Extract<CompactionRecord, { kind: "clearing" }>;
/** A record that replaces messages in the model's view: a summary or a truncation. */
export type ContextRecord = Exclude<CompactionRecord, { kind: "clearing" }>;

/**
 * The active context of one conversation: what the next model call is built from.
 * `compactions` are the active ones (not superseded, not undone), ordered by fromSeq.
 * `messages` are the active messages (not covered by an active compaction, or pinned),
 * ordered by seq, excluding rewound ones.
 */
export type Transcript = {
  conversationId: string;
  model: string;
  systemPrompt: string;
  systemPromptTokens: number;
  /** What the tool definitions sent with the request cost (0 when none are offered). */
  toolTokens: number;
  /**
   * The tool definitions the chat request offers, as sent. A summary request that
   * reuses the chat request's prefix offers the same ones (they open the cached prefix).
   */
  tools?: readonly RequestTool[] | undefined;
  /** Summaries and truncations; never a clearing (those are in `clearings`). */
  compactions: CompactionRecord[];
  /** Active clearings (none when absent), ordered by fromSeq. */
  clearings?: ClearingRecord[];
  messages: TranscriptMessage[];
  /** Every message ever written to the conversation (for the sliding window's dynamic sizing). */
  totalMessageCount: number;
};

type AttemptBase = {
  trigger: CompactionTrigger;
  strategy: CompactionSource;
  reason: string;
  model?: string;
  background: boolean;
  messagesBefore: number;
  tokensBefore: number;
  durationMs: number;
  /** What every summary model call of this try cost, failed ones included (absent: none, or no report). */
  usage?: CallUsage;
};

/** One try to compact. Only an applied attempt has a compaction and the context figures after it. */
export type AttemptRecord =
  | (AttemptBase & { outcome: "applied"; compactionId: string; messagesAfter: number; tokensAfter: number })
  | (AttemptBase & { outcome: "failed"; error?: string })
  | (AttemptBase & { outcome: "skipped" });
/** The outcomes as a schema for the export file; matches AttemptRecord's (lib/db/mappers.ts). */
export const attemptOutcomeSchema = z.enum(["applied", "failed", "skipped"]);

/**
 * What one run of the manager changed. Applied by the conversation layer in one
 * transaction: insert `created` (in order: a later record may list an earlier one in
 * childIds), set supersededById of every childId to its parent, mark `setAside` out of
 * view, insert `attempts`.
 * Empty `created` means nothing changed.
 */
export type CompressionChange = {
  created: CompactionRecord[];
  /** Active summaries out of the model's view whose stand-in text (outOfView) this change sets; stored with `created`. */
  setAside?: { id: string; text: string }[];
  attempts: AttemptRecord[];
  /** The transcript as it is after the change (the same object shape, new arrays). */
  transcript: Transcript;
};

export type ContextBreakdown = {
  systemTokens: number;
  summaryTokens: number;
  messageTokens: number;
  /** Tool definitions and request framing. */
  toolTokens: number;
  /**
   * What turns our count into the server's: (server count / our count of the last
   * request it reported, or a safety margin while it has reported nothing) applied to
   * the parts above, minus those parts. May be negative.
   */
  correctionTokens: number;
  /** The server's count as far as we can tell: the sum of everything above. */
  totalTokens: number;
  contextWindow: number;
  /** totalTokens / contextWindow */
  ratio: number;
  /** How the correction was found. */
  calibration: Calibration;
};

/** "reported": the server's usage of an earlier request; "margin": none yet, a safety factor. */
export type Calibration = { source: "reported" | "margin"; factor: number };

/** A chat message in the OpenAI wire shape, as sent to the model. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; content: string; tool_call_id: string };

/** A tool definition in the OpenAI wire shape (only passed through by the engine). */
export type RequestTool = {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
};

export type SummaryRequest = {
  model: string;
  messages: ChatMessage[];
  /** Offered only when the request is the chat request's prefix: the same tools keep the cached prefix. */
  tools?: readonly RequestTool[] | undefined;
  maxTokens: number;
  temperature: number;
  timeoutMs: number;
  json?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /** The conversation the summary is for: lib/llm derives the provider's prompt-cache key from it. */
  cacheScope?: string | undefined;
};

/** What one model call cost, as the server reported it; cachedTokens is the part of promptTokens served from its prompt cache. */
export type CallUsage = { promptTokens: number; cachedTokens: number; completionTokens: number };

/** The summary model's reply; finishReason "length" means it was cut at maxTokens; usage when the server reported it. */
export type SummaryReply = { text: string; finishReason?: string; usage?: CallUsage };

/** Injected: makes the separate summary-model call (lib/llm implements it with the openai client). */
export interface Summarizer {
  complete(request: SummaryRequest): Promise<SummaryReply>;
}

/** Injected: tiktoken counts (lib/llm implements it). */
export interface TokenCounter {
  count(text: string): number;
}

/**
 * Injected: context window of a model. The one lookup used by the engine and by every
 * view (lib/llm's table): `overrides` (settings.contextWindowOverrides) win.
 */
export interface ModelCatalog {
  contextWindow(model: string, overrides?: Readonly<Record<string, number>>): number;
}

export type CompressionSettings = import("./settings").CompressionSettings;

/** Injected: structured logger (pino in the app). */
export interface CompressionLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

// ---- Additions by the compression engine (lib/compression/manager.ts) ----

/** A compaction as planRewind needs it: every stored one, active, superseded or undone. */
export type RewindCompaction = {
  id: string;
  fromSeq: number;
  toSeq: number;
  childIds: string[];
  supersededById?: string | null;
  undone?: boolean;
};

/** What a rewind to `fromSeq` does to the compaction tree (ids, in input order). */
export type RewindPlan = {
  /** Compactions reaching seq >= fromSeq: mark undone. */
  undo: string[];
  /** Children of undone compactions that end before fromSeq: clear supersededById. */
  reactivate: string[];
};

export type ProcessOptions = {
  /** True after a reply (pre-emptive, never truncates); false before a model call. */
  background?: boolean;
  signal?: AbortSignal;
  /** Told just before a summary is requested, so the caller can show progress. */
  onSummarizing?: (range: { fromSeq: number; toSeq: number; messageCount: number }) => void;
};

export type CompactNowOptions = {
  /** Appended to the summary prompt and stored on the compaction. */
  instructions?: string;
  /** Overrides settings.strategy for this compaction. */
  strategy?: StrategyName;
  /** Make the summary but apply nothing: it comes back as `proposal`. */
  preview?: boolean;
  signal?: AbortSignal;
};

/** A summary that is shown to the user before it is applied (compactNow with preview). */
export type CompactionProposal = {
  summary: string;
  title?: string;
  sections?: SummarySections;
  fromSeq: number;
  toSeq: number;
  strategy: CompactionSource;
  summaryModel?: string;
  /** What the range costs in the request, and what the summary would cost there instead (our count, as applying compares them). */
  replacedTokens: number;
  proposedTokens: number;
};

export type ApplyProvidedInput = {
  summary: string;
  /** Derived from the summary when absent. */
  title?: string;
  trigger: "tool" | "manual";
  fromSeq?: number;
  toSeq?: number;
  instructions?: string;
  /** Defaults to "model_provided"; a user-edited preview keeps its strategy's name. */
  strategy?: SummaryCompaction["strategy"];
  sections?: SummarySections;
};

/** The assembled model request and what it costs. */
/** `recallTokens`: what the automatic recall block costs in it (our count; 0 without one, or when it had to be dropped). */
export type BuiltRequest = {
  messages: ChatMessage[];
  /** Per message, the seq of the transcript message it sends (null for a summary, the system prompt, a note): what lets the caller add what only it holds, such as a message's images. */
  seqs: (number | null)[];
  breakdown: ContextBreakdown;
  recallTokens: number;
};
