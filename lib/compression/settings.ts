import { z } from "zod";

// Defaults (threshold 0.8, keep 10, 1,000-token summaries, 30 s pass deadline; count
// trigger 40 / window 30; 1,500-char count-mode summaries) are the figures docs/design.md
// explains; contextBudget() scales them down for small windows.

export const STRATEGIES = ["ai_summary", "simple_extract", "structured", "turn_digest"] as const;
export const TRIGGER_MODES = ["tokens", "count", "sliding_window"] as const;
/**
 * How the model reaches what compression replaced: the history tools (search_history,
 * open_history), an automatic recall block found by searching for the user's message,
 * both, or neither (docs/design.md, "Recall").
 */
export const RECALL_MODES = ["off", "tools", "automatic", "both"] as const;
export type RecallMode = (typeof RECALL_MODES)[number];

const positiveInt = z.number().int().positive();
const nonNegativeInt = z.number().int().nonnegative();

/**
 * Bounds of the overrides: far more models than one endpoint serves, names as long as any
 * real model id (OpenRouter's "meta-llama/llama-3.1-405b-instruct:free", a Bedrock
 * inference-profile ARN), and the settings stay small enough to read on every turn.
 */
export const MAX_CONTEXT_WINDOW_OVERRIDES = 200;
export const MAX_MODEL_NAME_CHARS = 200;

// Checked before the entries are validated, so a huge list is refused for its size
// alone, and a long name with a message that says so.
const overrideBounds = z.unknown().superRefine((value, ctx) => {
  if (!value || typeof value !== "object") return;
  const names = Object.keys(value);
  if (names.length > MAX_CONTEXT_WINDOW_OVERRIDES) {
    ctx.addIssue({ code: "custom", message: `At most ${MAX_CONTEXT_WINDOW_OVERRIDES} context-window overrides.` });
    return;
  }
  const long = names.find((name) => name.length > MAX_MODEL_NAME_CHARS);
  if (long !== undefined) {
    ctx.addIssue({ code: "custom", path: [long.slice(0, 40)], message: `Model names are at most ${MAX_MODEL_NAME_CHARS} characters.` });
  }
});

const contextWindowOverridesSchema = overrideBounds.pipe(z.record(z.string().min(1), z.number().int().min(256)));

export const compressionSettingsObject = z.object({
  enabled: z.boolean().default(true),
  triggerMode: z.enum(TRIGGER_MODES).default("tokens"),
  /** Fraction of the context window at which auto compression runs (docs/design.md). */
  threshold: z.number().gt(0).lte(1).default(0.8),
  /**
   * Fraction past which a compaction is prepared in the background after a reply. 0 disables.
   * One that would free little waits, at most until 10 points under the threshold (docs/design.md).
   */
  preemptiveThreshold: z.number().gte(0).lt(1).default(0.65),
  /** An automatic compaction aims to bring the context down to threshold x this fraction. */
  compressionTarget: z.number().gt(0).lte(1).default(0.6),
  /**
   * Lines "FACT key=value" are carried verbatim: restored when a summary model drops
   * them and kept when a message is cut to fit. Off: summaries are stored as written.
   */
  preserveFactLines: z.boolean().default(true),
  /**
   * Sentences with specifics (numbers, names, identifiers, paths) that a summary left
   * out are appended to it verbatim, in the room its bound leaves; the model is asked
   * for a little less than the bound so that there is room.
   */
  carryDetails: z.boolean().default(true),
  /** Tokens kept free for the reply: the hard limit is contextWindow - hardLimitReserve. */
  hardLimitReserve: nonNegativeInt.default(4096),
  keepRecentCount: nonNegativeInt.default(10),
  summaryMaxTokens: positiveInt.default(1000),
  /** Empty: use the conversation's own model. */
  summaryModel: z.string().trim().max(MAX_MODEL_NAME_CHARS).default(""),
  summaryTimeoutMs: z.number().int().min(1000).max(600_000).default(30_000),
  summaryTemperature: z.number().min(0).max(2).default(0.3),
  strategy: z.enum(STRATEGIES).default("ai_summary"),
  customPrompt: z.string().max(20_000).default(""),
  /** Budget of the active summaries of one level; past it the oldest are merged one level up. */
  maxSummaryTokensPerLevel: positiveInt.default(3000),
  /** Count trigger: compress once this many messages are active. */
  countThreshold: positiveInt.default(40),
  countWindow: positiveInt.default(30),
  countKeepRecent: nonNegativeInt.default(10),
  countSummaryMaxChars: positiveInt.default(1500),
  /** Sliding-window trigger: compress a batch once the window of recent messages is full. */
  windowSize: positiveInt.default(20),
  compressionBatchSize: positiveInt.default(10),
  dynamicWindow: z.boolean().default(true),
  /** simple_extract: characters kept of each key field (a deterministic strategy needs a fixed size). */
  extractFieldMaxChars: positiveInt.default(200),
  /** turn_digest: concurrent digest calls. */
  digestConcurrency: z.number().int().min(1).max(16).default(4),
  /**
   * A tool result larger than this (tokens) reaches the model as its head and tail with
   * a marker naming what was left out; the stored result stays whole. Scaled down for
   * small windows (contextBudget).
   */
  toolResultMaxTokens: z.number().int().min(256).max(1_000_000).default(8000),
  /**
   * Before anything is summarized, the results of tool rounds older than the newest
   * `keepToolRounds` are cleared from the model's view (the call stays, the output
   * becomes a one-line note); no model call. Off: only summaries compress tool output.
   */
  clearToolResults: z.boolean().default(true),
  keepToolRounds: z.number().int().min(0).max(100).default(3),
  /**
   * Where automatic compression runs in a tool session (most rounds in view are calls whose
   * results were cleared) from a 24k window (MIN_TOOL_SESSION_WINDOW); 0: at the auto
   * threshold like any conversation. What such a context holds besides the newest results
   * is the calls and notes around them, and carrying them costs more than summarizing them
   * (docs/design.md, "Tool output").
   */
  toolSessionThreshold: z.number().gte(0).lte(1).default(0.5),
  /** Tell the model its context usage in a short system note. */
  budgetNote: z.boolean().default(false),
  /**
   * Both by default: a model that calls tools looks up exactly what it needs, one that
   * never does still gets the best matches from the compressed history; neither costs
   * anything until part of the conversation is compressed.
   */
  recallMode: z.enum(RECALL_MODES).default("both"),
  /** Largest automatic recall block and largest history-tool result (scaled down for small windows). */
  recallMaxTokens: z.number().int().min(100).max(20_000).default(1500),
  /** Per-model context windows that override the built-in table. */
  contextWindowOverrides: contextWindowOverridesSchema.default({}),
});

export const compressionSettingsSchema = compressionSettingsObject.superRefine((settings, ctx) => {
  if (settings.preemptiveThreshold > 0 && settings.preemptiveThreshold >= settings.threshold) {
    ctx.addIssue({
      code: "custom",
      path: ["preemptiveThreshold"],
      message: "The pre-emptive threshold must be below the auto threshold (or 0 to disable).",
    });
  }
  if (settings.countWindow > settings.countThreshold) {
    ctx.addIssue({ code: "custom", path: ["countWindow"], message: "The window cannot exceed the count threshold." });
  }
  if (settings.countKeepRecent >= settings.countThreshold) {
    ctx.addIssue({ code: "custom", path: ["countKeepRecent"], message: "Keep-recent must be below the count threshold." });
  }
  if (settings.compressionBatchSize > settings.windowSize) {
    ctx.addIssue({ code: "custom", path: ["compressionBatchSize"], message: "The batch cannot exceed the window size." });
  }
});

export type CompressionSettings = z.infer<typeof compressionSettingsObject>;

/**
 * Below this window `both` leaves the history tools out and relies on automatic recall:
 * their definitions (about 200 tokens by our count, over 300 by some servers') take a
 * share of every request that small windows need for the conversation (docs/design.md,
 * "Recall", has the measurements).
 */
export const MIN_HISTORY_TOOLS_WINDOW = 8192;

/**
 * Whether the history tools may be offered at this window (they are, once something is
 * compressed). `tools` offers them at any window: it is the user's only way back.
 */
export function recallByTools(settings: Pick<CompressionSettings, "recallMode">, contextWindow: number): boolean {
  return settings.recallMode === "tools" || (settings.recallMode === "both" && contextWindow >= MIN_HISTORY_TOOLS_WINDOW);
}

/**
 * The settings for a model that cannot call tools: automatic recall stands in for the
 * history tools (with `tools` or `both`), so the model is never told to call them.
 */
export function withoutToolRecall<T extends Pick<CompressionSettings, "recallMode">>(settings: T): T {
  return settings.recallMode === "tools" || settings.recallMode === "both" ? { ...settings, recallMode: "automatic" } : settings;
}

/** Whether the user's message is searched for in the compressed history before a model call. */
export function recallAutomatically(settings: Pick<CompressionSettings, "recallMode">): boolean {
  return settings.recallMode === "automatic" || settings.recallMode === "both";
}

export const DEFAULT_SETTINGS: CompressionSettings = compressionSettingsObject.parse({});

/** Stored values may predate a setting: fill defaults, drop what no longer validates field by field. */
export function settingsFromStored(stored: unknown): CompressionSettings {
  const parsed = compressionSettingsSchema.safeParse(stored ?? {});
  if (parsed.success) return parsed.data;
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  if (stored && typeof stored === "object") {
    for (const [key, value] of Object.entries(stored)) {
      const field = compressionSettingsObject.shape[key as keyof CompressionSettings];
      if (field && field.safeParse(value).success) merged[key] = value;
    }
  }
  const retry = compressionSettingsSchema.safeParse(merged);
  return retry.success ? retry.data : DEFAULT_SETTINGS;
}
