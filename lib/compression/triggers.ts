import { formatCount } from "./render";
import type { SelectionRules } from "./selection";
import type { CompressionSettings } from "./settings";
import type { ContextBreakdown, Transcript } from "./types";

/** What an automatic trigger asks for: why, which messages, and the count trigger's length cap. */
export type TriggerDecision = { reason: string; rules: SelectionRules; maxChars?: number };

/** Headroom left in the summary model's window for instructions and the reply. */
const PROMPT_RESERVE_TOKENS = 1500;

export function summaryInputBudget(summaryModelWindow: number, settings: CompressionSettings): number {
  return Math.max(1000, summaryModelWindow - settings.summaryMaxTokens - PROMPT_RESERVE_TOKENS);
}

/**
 * Seed 001's adjustWindowSizeAndBatchSize, scaled to the configured sizes: the seed
 * grows the window 5→8→10→12 and the batch 2→3→4→5 as the step count passes 10, 20
 * and 50, i.e. 2, 4 and 10 times its base window.
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

/** Null when the configured trigger does not fire. */
export function decideTrigger(
  transcript: Transcript,
  settings: CompressionSettings,
  breakdown: ContextBreakdown,
  background: boolean,
  maxInputTokens: number,
): TriggerDecision | null {
  const active = transcript.messages.filter((message) => !message.pinned).length;
  switch (settings.triggerMode) {
    case "tokens": {
      const limit = background ? settings.preemptiveThreshold : settings.threshold;
      if (limit <= 0 || breakdown.ratio < limit) return null;
      // Summarize enough that the context lands well under the threshold, so the
      // next turns do not trigger again at once.
      const target = settings.threshold * settings.compressionTarget * breakdown.contextWindow;
      const enoughTokens = Math.max(1, breakdown.totalTokens - target + settings.summaryMaxTokens);
      return {
        reason: `context at ${percent(breakdown.ratio)} of ${formatCount(breakdown.contextWindow)} tokens reached the ${background ? "pre-emptive " : ""}threshold of ${percent(limit)}`,
        rules: { keep: settings.keepRecentCount, protectLastUser: true, enoughTokens, maxInputTokens },
      };
    }
    case "count": {
      if (active < settings.countThreshold) return null;
      return {
        reason: `${active} active messages reached the count threshold of ${settings.countThreshold}`,
        rules: {
          keep: settings.countKeepRecent,
          protectLastUser: true,
          maxCount: Math.min(settings.countWindow, active - settings.countKeepRecent),
          maxInputTokens,
        },
        maxChars: settings.countSummaryMaxChars,
      };
    }
    case "sliding_window": {
      const { windowSize, batchSize } = slidingWindowSizes(settings, transcript.totalMessageCount);
      if (active <= windowSize) return null;
      return {
        reason: `${active} active messages exceed the window of ${windowSize}; compressing the oldest ${batchSize}`,
        rules: {
          keep: Math.min(settings.keepRecentCount, windowSize - batchSize),
          protectLastUser: true,
          maxCount: batchSize,
          maxInputTokens,
        },
      };
    }
  }
}
