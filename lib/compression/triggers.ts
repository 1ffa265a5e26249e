import type { ContextBudget } from "./budget";
import { toOurTokens } from "./measure";
import { formatCount } from "./render";
import type { SelectionRules } from "./selection";
import type { CompressionSettings } from "./settings";
import type { ContextBreakdown, Transcript } from "./types";

/** What an automatic trigger asks for: why, which messages, and the count trigger's length cap. */
export type TriggerDecision = {
  reason: string;
  rules: SelectionRules;
  maxChars?: number;
  /** The request is over the hard limit: if the normal rules find nothing, the kept tail may be summarized too. */
  overHardLimit: boolean;
};

/** Headroom left in the summary model's window for instructions and the reply. */
const PROMPT_RESERVE_TOKENS = 1500;

export function summaryInputBudget(summaryModelWindow: number, summaryMaxTokens: number): number {
  return Math.max(1000, summaryModelWindow - summaryMaxTokens - PROMPT_RESERVE_TOKENS);
}

/**
 * Sliding-window mode grows the window and the batch as a conversation gets longer
 * (5→8→10→12 and 2→3→4→5 at 2, 4 and 10 times the base window), so a long conversation
 * compacts in fewer, larger steps.
 */
export function slidingWindowSizes(settings: CompressionSettings, totalMessageCount: number): { windowSize: number; batchSize: number } {
  const base = settings.windowSize;
  if (!settings.dynamicWindow) return { windowSize: base, batchSize: settings.compressionBatchSize };
  const tier = totalMessageCount <= base * 2 ? 0 : totalMessageCount <= base * 4 ? 1 : totalMessageCount <= base * 10 ? 2 : 3;
  const windowSize = Math.round(base * [1, 1.6, 2, 2.4][tier]!);
  const batchSize = Math.min(windowSize, Math.round(settings.compressionBatchSize * [1, 1.5, 2, 2.5][tier]!));
  return { windowSize, batchSize };
}

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

export type TriggerInput = {
  transcript: Transcript;
  settings: CompressionSettings;
  budget: ContextBudget;
  breakdown: ContextBreakdown;
  /** After a reply (pre-emptive): lower threshold, and never the hard-limit guard. */
  background: boolean;
  maxInputTokens: number;
  /** The request as it would be sent (requestTokens), which the hard limit applies to. */
  requestTokens: number;
  /** Fire whenever the context is above the target, not only past the threshold (after a clearing pass). */
  toTarget?: boolean;
};

/**
 * The token rule every trigger mode shares: past the (pre-emptive) threshold, or over
 * the hard limit whatever the thresholds say, summarize enough to land at the target.
 * Count and sliding-window modes use it as their guard, so a long message is
 * summarized before it could ever be cut.
 */
function overHardLimit(input: TriggerInput): boolean {
  return !input.background && input.requestTokens > input.budget.hardLimit;
}

function tokenDecision(input: TriggerInput): TriggerDecision | null {
  const { budget, breakdown, settings, background } = input;
  const over = overHardLimit(input);
  const limit = background ? budget.preemptiveTokens : budget.thresholdTokens;
  if (!over && (limit <= 0 || breakdown.totalTokens < limit) && !input.toTarget) return null;
  // Enough that the context lands at the target (a summary of about half its bound
  // comes back), so the next turns do not trigger again at once. A pre-emptive
  // compaction lands as far under the target as its threshold is under the auto
  // threshold, so it buys as many turns as a compaction at the threshold: every
  // compaction changes the request from the first block it replaces, and a provider's
  // prompt cache misses from there on (docs/design.md, "A stable prefix").
  // (Never below half the target: a pre-emptive threshold set far down must not empty the context each time.)
  const target = background ? Math.max(budget.targetTokens / 2, budget.targetTokens - Math.max(0, budget.thresholdTokens - budget.preemptiveTokens)) : budget.targetTokens;
  if (!over && input.toTarget && breakdown.totalTokens <= target) return null;
  const excess = toOurTokens(breakdown.totalTokens - target, breakdown.calibration);
  const enoughTokens = Math.max(1, excess + Math.round(budget.summaryMaxTokens / 2));
  const reason = over
    ? `request of ${formatCount(input.requestTokens)} tokens is over the hard limit of ${formatCount(budget.hardLimit)}`
    : `context at ${percent(breakdown.ratio)} of ${formatCount(breakdown.contextWindow)} tokens reached the ${background ? "pre-emptive " : ""}threshold of ${percent(background ? budget.preemptiveThreshold : budget.threshold)}`;
  return {
    reason,
    rules: {
      keep: settings.keepRecentCount,
      keepTokens: toOurTokens(budget.keepTokens, breakdown.calibration),
      protectLastUser: true,
      enoughTokens,
      maxInputTokens: input.maxInputTokens,
    },
    overHardLimit: over,
  };
}

/** Null when no trigger fires. */
export function decideTrigger(input: TriggerInput): TriggerDecision | null {
  const { transcript, settings } = input;
  switch (settings.triggerMode) {
    case "tokens":
      return tokenDecision(input);
    case "count": {
      const active = transcript.messages.filter((message) => !message.pinned).length;
      if (active < settings.countThreshold) return tokenDecision(input);
      return {
        reason: `${active} active messages reached the count threshold of ${settings.countThreshold}`,
        rules: {
          keep: settings.countKeepRecent,
          protectLastUser: true,
          maxCount: Math.min(settings.countWindow, active - settings.countKeepRecent),
          maxInputTokens: input.maxInputTokens,
        },
        maxChars: settings.countSummaryMaxChars,
        overHardLimit: overHardLimit(input),
      };
    }
    case "sliding_window": {
      const active = transcript.messages.filter((message) => !message.pinned).length;
      const { windowSize, batchSize } = slidingWindowSizes(settings, transcript.totalMessageCount);
      if (active <= windowSize) return tokenDecision(input);
      return {
        reason: `${active} active messages exceed the window of ${windowSize}; compressing the oldest ${batchSize}`,
        rules: {
          keep: Math.min(settings.keepRecentCount, windowSize - batchSize),
          protectLastUser: true,
          maxCount: batchSize,
          maxInputTokens: input.maxInputTokens,
        },
        overHardLimit: overHardLimit(input),
      };
    }
  }
}
