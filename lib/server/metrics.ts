// Prometheus metrics (prom-client) of this process, served by GET /api/metrics.
// One registry per process, kept on globalThis so Next's module copies share it.
// With several instances, Prometheus scrapes each and sums: counters are per process.
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { AttemptRecord, CallUsage } from "../compression/types";

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
    modelTokens: new Counter({
      name: "strata_model_tokens_total",
      help: "Tokens of model calls as the model server reported them, by call kind (chat, summary) and type (prompt, cached: the part of prompt served from the server's cache, completion).",
      labelNames: ["kind", "type"] as const,
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

export function recordTurn(outcome: "complete" | "stopped" | "error", usage?: CallUsage): void {
  const m = metrics();
  m.turns.inc({ outcome });
  if (usage?.promptTokens) m.promptTokens.inc(usage.promptTokens);
  recordCallUsage("chat", usage);
}

/** What one model call cost, as the server reported it (nothing when it reported nothing). */
export function recordCallUsage(kind: "chat" | "summary", usage: CallUsage | undefined): void {
  if (!usage) return;
  const { modelTokens } = metrics();
  modelTokens.inc({ kind, type: "prompt" }, usage.promptTokens);
  modelTokens.inc({ kind, type: "cached" }, usage.cachedTokens);
  modelTokens.inc({ kind, type: "completion" }, usage.completionTokens);
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
