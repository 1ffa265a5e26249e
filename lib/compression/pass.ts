import type { ContextBudget } from "./budget";
import { formatCount } from "./render";
import type { CompressionSettings } from "./settings";
import { SummaryFailure } from "./summary-call";
import type { CompactionSource, CompactionTrigger, ProcessOptions, StrategyName } from "./types";

/** What one compression pass works with: one settings snapshot, the window's budget, one deadline. */
export type RunContext = {
  settings: CompressionSettings;
  budget: ContextBudget;
  trigger: CompactionTrigger;
  strategy: StrategyName;
  background: boolean;
  /** The caller's signal and the pass deadline together. */
  signal?: AbortSignal;
  instructions?: string;
  onSummarizing?: ProcessOptions["onSummarizing"];
};

/** The part of a context an attempt record needs (a provided summary's "strategy" is not a strategy). */
export type AttemptContext = Pick<RunContext, "settings" | "trigger" | "background"> & { strategy: CompactionSource };

/**
 * One deadline for a whole compression pass (every summary and merge in it), joined
 * with the caller's signal; aborting with a SummaryFailure lets the attempt say why.
 */
export function passSignal(timeoutMs: number, caller?: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new SummaryFailure(`compression timed out: the pass ran past its ${formatCount(timeoutMs)} ms deadline`)),
    timeoutMs,
  );
  return {
    signal: caller ? AbortSignal.any([deadline.signal, caller]) : deadline.signal,
    dispose: () => clearTimeout(timer),
  };
}

/** An error as an attempt shows it: SummaryFailure says its own reason; anything else is a bug. */
export function failureOf(error: unknown): { reason: string; error?: string } {
  if (error instanceof SummaryFailure) return { reason: error.reason, error: error.detail ?? error.reason };
  const message = error instanceof Error ? error.message : String(error);
  return { reason: `compression failed unexpectedly: ${message}`, error: error instanceof Error ? (error.stack ?? message) : message };
}

export const withNotes = (reason: string, notes?: string[]) => (notes?.length ? `${reason} (${notes.join("; ")})` : reason);
