// Prometheus metrics (prom-client) of this process, served by GET /api/metrics.
// One registry per process, kept on globalThis so Next's module copies share it.
// With several instances, Prometheus scrapes each and sums: counters are per process.
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { AttemptRecord } from "../compression/types";

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "strata_process_" });
  return {
    registry,
    turns: new Counter({
      name: "strata_turns_total",
      help: "Model calls of chat turns by how they ended (complete, stopped, error); a turn with tool calls makes several.",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    compactions: new Counter({
      name: "strata_compaction_attempts_total",
      help: "Compaction attempts by outcome (applied, skipped, failed, …) and whether they ran in the background.",
      labelNames: ["outcome", "background"] as const,
      registers: [registry],
    }),
    summaryLatency: new Histogram({
      name: "strata_summary_duration_seconds",
      help: "Duration of one summary model call (turn digests count once per call).",
      labelNames: ["result"] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    promptTokens: new Counter({
      name: "strata_prompt_tokens_total",
      help: "Prompt tokens of chat model calls as the model server reported them.",
      registers: [registry],
    }),
    summaryTokens: new Counter({
      name: "strata_summary_tokens_total",
      help: "Tokens of the summaries saved by compactions.",
      registers: [registry],
    }),
    jobs: new Counter({
      name: "strata_background_jobs_total",
      help: "Background jobs (pre-emptive compaction) run by this process, by result.",
      labelNames: ["result"] as const,
      registers: [registry],
    }),
  };
}

type Metrics = ReturnType<typeof createMetrics>;
const holder = globalThis as unknown as { strataMetrics?: Metrics };

export function metrics(): Metrics {
  return (holder.strataMetrics ??= createMetrics());
}

export function recordTurn(outcome: "complete" | "stopped" | "error", promptTokens?: number): void {
  const m = metrics();
  m.turns.inc({ outcome });
  if (promptTokens) m.promptTokens.inc(promptTokens);
}

/** The attempts of one saved (or refused) change, and the summary tokens it stored. */
export function recordCompression(attempts: readonly AttemptRecord[], savedSummaryTokens: number): void {
  const m = metrics();
  for (const attempt of attempts) m.compactions.inc({ outcome: attempt.outcome, background: String(attempt.background) });
  if (savedSummaryTokens > 0) m.summaryTokens.inc(savedSummaryTokens);
}

/** Times one summary call. */
export async function timeSummary<T>(call: () => Promise<T>): Promise<T> {
  const end = metrics().summaryLatency.startTimer();
  try {
    const result = await call();
    end({ result: "ok" });
    return result;
  } catch (error) {
    end({ result: "error" });
    throw error;
  }
}
