// The stop button reaches a running tool call: the tool gets the turn's signal to end
// its work, and the turn does not wait for it to notice. A call stopped this way is
// stored as failed with a note the model reads, so the next request still has a
// result for every call.
import type { ToolRun } from "./types";

export const STOPPED_WHILE_RUNNING = "The user stopped this call while it ran; it may have done part of its work.";

/** `run`'s result, or a stopped result as soon as `signal` aborts (the run is left to end by itself). */
export function untilStopped(run: Promise<ToolRun>, signal: AbortSignal): Promise<ToolRun> {
  const stopped: ToolRun = { outcome: "failed", content: STOPPED_WHILE_RUNNING };
  if (signal.aborted) {
    // Its eventual failure is the tool's to report, not an unhandled rejection here.
    run.catch(() => undefined);
    return Promise.resolve(stopped);
  }
  return new Promise<ToolRun>((resolve, reject) => {
    const onAbort = () => {
      run.catch(() => undefined);
      resolve(stopped);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    run.then(
      (result) => {
        signal.removeEventListener("abort", onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
