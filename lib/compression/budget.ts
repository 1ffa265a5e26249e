import { formatCount } from "./render";
import type { CompressionSettings } from "./settings";

// Settings are global, windows are per model: a reserve of 4,096 tokens is sensible at
// 128k and absurd at 8k (the hard limit would sit below the threshold, so the context
// would be cut before it was ever summarized). The budget turns the settings into the
// figures that work for one window, and says which ones it had to change.

/** The reply reserve never takes more than this share of the window. */
const MAX_RESERVE_SHARE = 0.15;
/** The auto threshold stays at least this far under the hard limit, so a summary comes before any cut. */
const THRESHOLD_MARGIN = 0.05;
/** The pre-emptive threshold stays at least this far under the auto threshold. */
const PREEMPTIVE_MARGIN = 0.1;
/** One summary takes at most this share of the window. */
const MAX_SUMMARY_SHARE = 0.08;
/** Recalled history (the automatic block, one history-tool result) takes at most this share of the window. */
const MAX_RECALL_SHARE = 0.08;
/** Smallest recall bound: one or two earlier messages. */
const MIN_RECALL_TOKENS = 100;
/** Smallest summary bound worth asking a model for. */
const MIN_SUMMARY_TOKENS = 64;
/** The summaries of one level, as they cost in the request, take at most this share. */
const MAX_LEVEL_SHARE = 0.2;
/** All active summaries together take at most this share. */
const MAX_SUMMARIES_SHARE = 0.3;
/** The recent messages kept verbatim take at most this share, so every compaction frees a useful amount. */
const MAX_KEEP_SHARE = 0.25;
/** Summaries and kept messages each take at most this share of what the target leaves after the fixed part. */
const SHARE_OF_TARGET = 0.5;
/** One tool result takes at most this share of the window in the request (the rest is cut from its middle). */
const MAX_TOOL_RESULT_SHARE = 0.1;
/** A cut result keeps at least this much of its head and tail. */
const MIN_TOOL_RESULT_TOKENS = 256;
/**
 * A clearing pass that frees less than it makes a provider read again uncached still runs
 * once it frees this share of the threshold: by then the results waiting for a chunk cost
 * more on every request than one re-read.
 */
export const MIN_CLEARING_SHARE = 0.2;
/**
 * Below this window a tool session keeps the auto threshold: half of a small window holds
 * little besides the tool definitions and the newest result, so summaries would come every
 * few rounds and cost more than the carried calls and notes do (docs/design.md, "Tool output").
 */
export const MIN_TOOL_SESSION_WINDOW = 24_576;
/**
 * The fan-out of the summary tree: a merge takes at most this many summaries of one
 * level, and a level that holds this many is merged one level up.
 */
export const FAN_OUT = 4;
/** Past this many summary blocks in view, the oldest run is merged (or, at the top, leaves the view). */
export const MAX_SUMMARY_BLOCKS = 10;

export type BudgetAdjustment = {
  setting: "hardLimitReserve" | "threshold" | "preemptiveThreshold" | "summaryMaxTokens" | "maxSummaryTokensPerLevel" | "toolResultMaxTokens" | "recallMaxTokens";
  configured: number;
  effective: number;
  reason: string;
};

/** The figures compression works with for one context window. Token figures are in the server's count. */
export type ContextBudget = {
  contextWindow: number;
  /** Tokens kept free for the reply. */
  reserve: number;
  /** No request may exceed this. */
  hardLimit: number;
  threshold: number;
  thresholdTokens: number;
  /** 0 when pre-emptive compaction is off. */
  preemptiveThreshold: number;
  preemptiveTokens: number;
  /**
   * The latest a pre-emptive compaction may start (the threshold less its margin): one that
   * would free too little waits until then (AutoCompressionManager, "preemptiveWaits").
   */
  preemptiveLatestTokens: number;
  /** Where an automatic compaction aims to bring the context. */
  targetTokens: number;
  /** The most the kept recent messages may cost before the oldest of them may be summarized. */
  keepTokens: number;
  /** Longest summary (and merged summary) the engine keeps. */
  summaryMaxTokens: number;
  /** What the summaries of one level may cost in the request before they are merged. */
  levelBudgetTokens: number;
  /** What all active summaries may cost together. */
  summaryBudgetTokens: number;
  /** Largest tool result sent whole (our count, as stored); a larger one is sent as head and tail. */
  toolResultMaxTokens: number;
  /** Fewest tokens a clearing pass must free to be applied (unless the request is over the hard limit). */
  minClearingTokens: number;
  /** The largest automatic recall block, and the largest page a history tool returns. */
  recallTokens: number;
  adjustments: BudgetAdjustment[];
};

/** Far below any share of a window a setting can hold, far above floating-point error. */
const RATIO_TOLERANCE = 1e-9;

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

/**
 * `baseTokens` is what every request carries whatever compression does (system prompt,
 * tool definitions), in the server's count: the kept messages and the summaries share
 * what is left under the target, so that a compaction always frees a useful amount
 * instead of a message or two per turn.
 */
export function contextBudget(contextWindow: number, settings: CompressionSettings, baseTokens = 0, toolSession = false): ContextBudget {
  const window = Math.max(1, contextWindow);
  const adjustments: BudgetAdjustment[] = [];
  /**
   * `effective`, noting why when it differs from what was configured. Shares of the window
   * are compared with a tolerance: at a window whose reserve is exactly 15% (2,000, 4,000,
   * 8,000 tokens) the hard limit less 5 points is 0.7999999999999999, and a default 80%
   * threshold read "adjusted, 80% → 80%".
   */
  const limited = (setting: BudgetAdjustment["setting"], configured: number, effective: number, reason: string) => {
    if (configured - effective <= RATIO_TOLERANCE) return configured;
    adjustments.push({ setting, configured, effective, reason });
    return effective;
  };

  const reserve = limited(
    "hardLimitReserve",
    settings.hardLimitReserve,
    Math.min(settings.hardLimitReserve, Math.floor(window * MAX_RESERVE_SHARE)),
    `at most ${percent(MAX_RESERVE_SHARE)} of a ${formatCount(window)}-token window is kept for the reply`,
  );
  const hardLimit = window - reserve;

  const underHardLimit = Math.max(0.05, hardLimit / window - THRESHOLD_MARGIN);
  const early = toolSession && settings.toolSessionThreshold > 0 && window >= MIN_TOOL_SESSION_WINDOW;
  const wanted = early ? Math.min(settings.threshold, settings.toolSessionThreshold) : settings.threshold;
  const threshold = limited(
    "threshold",
    settings.threshold,
    Math.min(wanted, underHardLimit),
    wanted < underHardLimit
      ? `most rounds in view are tool calls whose results were cleared, so their calls and notes are summarized from the tool-session threshold`
      : `the threshold must stay under the hard limit (${percent(hardLimit / window)} of the window) so a summary comes before any cut`,
  );
  const preemptiveThreshold = limited(
    "preemptiveThreshold",
    settings.preemptiveThreshold,
    settings.preemptiveThreshold > 0 ? Math.min(settings.preemptiveThreshold, Math.max(0, threshold - PREEMPTIVE_MARGIN)) : 0,
    `pre-emptive compaction must start below the threshold of ${percent(threshold)}`,
  );

  const thresholdTokens = Math.floor(window * threshold);
  const targetTokens = Math.floor(thresholdTokens * settings.compressionTarget);
  const shared = Math.max(0, targetTokens - baseTokens) * SHARE_OF_TARGET;
  const summaryBudgetTokens = Math.max(MIN_SUMMARY_TOKENS * 2, Math.floor(Math.min(window * MAX_SUMMARIES_SHARE, shared)));
  const keepTokens = Math.floor(Math.min(window * MAX_KEEP_SHARE, shared));

  const maxSummary = Math.max(MIN_SUMMARY_TOKENS, Math.min(Math.floor(window * MAX_SUMMARY_SHARE), Math.floor(summaryBudgetTokens / 2)));
  const summaryMaxTokens = limited(
    "summaryMaxTokens",
    settings.summaryMaxTokens,
    Math.min(settings.summaryMaxTokens, maxSummary),
    `one summary takes at most ${percent(MAX_SUMMARY_SHARE)} of a ${formatCount(window)}-token window (and half of what summaries may use)`,
  );

  const maxLevel = Math.min(Math.floor(window * MAX_LEVEL_SHARE), summaryBudgetTokens);
  const levelBudgetTokens = limited(
    "maxSummaryTokensPerLevel",
    settings.maxSummaryTokensPerLevel,
    Math.max(summaryMaxTokens, Math.min(settings.maxSummaryTokensPerLevel, maxLevel)),
    `the summaries of one level take at most ${percent(MAX_LEVEL_SHARE)} of a ${formatCount(window)}-token window`,
  );

  const toolResultMaxTokens = limited(
    "toolResultMaxTokens",
    settings.toolResultMaxTokens,
    Math.min(settings.toolResultMaxTokens, Math.max(MIN_TOOL_RESULT_TOKENS, Math.floor(window * MAX_TOOL_RESULT_SHARE))),
    `one tool result takes at most ${percent(MAX_TOOL_RESULT_SHARE)} of a ${formatCount(window)}-token window`,
  );
  const recallTokens = limited(
    "recallMaxTokens",
    settings.recallMaxTokens,
    Math.min(settings.recallMaxTokens, Math.max(MIN_RECALL_TOKENS, Math.floor(window * MAX_RECALL_SHARE))),
    `recalled history takes at most ${percent(MAX_RECALL_SHARE)} of a ${formatCount(window)}-token window`,
  );

  return {
    contextWindow: window,
    reserve,
    hardLimit,
    threshold,
    thresholdTokens,
    preemptiveThreshold,
    preemptiveTokens: Math.floor(window * preemptiveThreshold),
    preemptiveLatestTokens: preemptiveThreshold > 0 ? Math.floor(window * Math.max(preemptiveThreshold, threshold - PREEMPTIVE_MARGIN)) : 0,
    targetTokens,
    keepTokens,
    summaryMaxTokens,
    levelBudgetTokens,
    summaryBudgetTokens: Math.max(levelBudgetTokens, summaryBudgetTokens),
    toolResultMaxTokens,
    minClearingTokens: Math.floor(thresholdTokens * MIN_CLEARING_SHARE),
    recallTokens,
    adjustments,
  };
}
