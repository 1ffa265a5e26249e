// The worker's side of several server processes on one port (scripts/processes.mjs):
// GET /api/metrics reaches one of them, but should describe the instance. So a worker
// asks the primary, which asks every worker for its registry and sums them; each
// worker answers such requests from the moment it starts. The message types are
// scripts/processes.mjs's (a unit test holds the two files to the same names).
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { metrics } from "./metrics";

export const METRICS_COLLECT = "strata:metrics:collect";
export const METRICS_REPORT = "strata:metrics:report";
export const METRICS_RESULT = "strata:metrics:result";

// Longer than the primary's own wait for reports, so its partial answer arrives first.
const RESULT_TIMEOUT_MS = 5_000;

type Message = { type?: string; id?: string; text?: string };

/** One of several server processes of this instance (started by scripts/processes.mjs). */
export function inProcessGroup(): boolean {
  return cluster.isWorker && typeof process.send === "function";
}

/** Reports this process's metrics whenever the primary collects them. */
export function answerMetricsReports(): void {
  if (!inProcessGroup()) return;
  process.on("message", (message: Message) => {
    if (message?.type !== METRICS_REPORT) return;
    void metrics()
      .registry.getMetricsAsJSON()
      .then((json) => process.send?.({ type: METRICS_REPORT, id: message.id, metrics: json }));
  });
}

/** The Prometheus text of the whole instance: this process's, or every process's summed. */
export async function instanceMetricsText(): Promise<string> {
  const { registry } = metrics();
  if (!inProcessGroup()) return registry.metrics();
  const id = randomUUID();
  const answer = new Promise<string | null>((resolve) => {
    const onMessage = (message: Message) => {
      if (message?.type !== METRICS_RESULT || message.id !== id) return;
      done(message.text ?? null);
    };
    const timer = setTimeout(() => done(null), RESULT_TIMEOUT_MS);
    const done = (text: string | null) => {
      clearTimeout(timer);
      process.off("message", onMessage);
      resolve(text);
    };
    process.on("message", onMessage);
  });
  process.send!({ type: METRICS_COLLECT, id });
  // No answer from the primary: this process's own, rather than nothing.
  return (await answer) ?? registry.metrics();
}
