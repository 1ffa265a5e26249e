import type { Summarizer, SummaryRequest } from "./types";

/** A summary that cannot be used; `reason` is what the attempt record and log show. */
export class SummaryFailure extends Error {
  constructor(
    readonly reason: string,
    readonly detail?: string,
  ) {
    super(reason);
    this.name = "SummaryFailure";
  }
}

export type SummaryCall = SummaryRequest & { summarizer: Summarizer };

/** A request that offered tools (one that reuses the chat prefix) was answered with a tool call and no text. */
export const TOOL_CALL_INSTEAD = "summary model called a tool instead of writing a summary";

/**
 * One summary-model call with the timeout enforced here as well as passed on: a
 * summarizer that ignores its signal must still not hold up the turn.
 */
export async function callSummaryModel(call: SummaryCall): Promise<{ text: string; finishReason: string }> {
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([timeout, call.signal]) : timeout;
  // A caller that aborts with a SummaryFailure (the pass deadline) says why itself.
  const describeAbort = (): SummaryFailure =>
    timeout.aborted
      ? new SummaryFailure(`summary model timed out after ${call.timeoutMs} ms`)
      : call.signal?.reason instanceof SummaryFailure
        ? call.signal.reason
        : new SummaryFailure("summary cancelled by the caller");
  if (signal.aborted) throw describeAbort();

  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(describeAbort());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const reply = await Promise.race([
      call.summarizer.complete({
        model: call.model,
        messages: call.messages,
        ...(call.tools ? { tools: call.tools } : {}),
        maxTokens: call.maxTokens,
        temperature: call.temperature,
        timeoutMs: call.timeoutMs,
        json: call.json,
        signal,
      }),
      aborted,
    ]);
    const text = typeof reply?.text === "string" ? reply.text : "";
    if (!text.trim() && call.tools?.length && reply?.finishReason === "tool_calls") throw new SummaryFailure(TOOL_CALL_INSTEAD);
    if (!text.trim()) throw new SummaryFailure("summary model returned empty output");
    return { text: text.trim(), finishReason: typeof reply?.finishReason === "string" ? reply.finishReason : "stop" };
  } catch (error) {
    if (error instanceof SummaryFailure) throw error;
    if (signal.aborted) throw describeAbort();
    const message = error instanceof Error ? error.message : String(error);
    throw new SummaryFailure(`summary model call failed: ${message}`, message);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
    aborted.catch(() => undefined);
  }
}
