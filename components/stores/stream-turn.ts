// Runs a turn through the sendMessageAction server action, whose value is a stream of
// TurnEvents that React's Flight protocol delivers as they are produced. A refusal
// (validation, unknown conversation) arrives as an error result before any event and
// is thrown as TurnRequestError so the composer can show it.
import { sendMessageAction } from "@/app/actions";
import { turnEventSchema, type TurnEvent } from "@/lib/chat/events";
import type { TurnBody } from "@/lib/chat/turn-request";

export class TurnRequestError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "TurnRequestError";
  }
}

/**
 * An event as received, checked against the schema: one that does not fit becomes an
 * error event naming what was wrong, so the store never acts on a half-read event.
 */
export function checkedEvent(value: unknown): { event: TurnEvent; valid: boolean } {
  const parsed = turnEventSchema.safeParse(value);
  if (parsed.success) return { event: parsed.data, valid: true };
  const problem = parsed.error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; ");
  return { event: { type: "error", message: `The server sent an event this page cannot read (${problem}).`, retryable: false }, valid: false };
}

/**
 * Starts a turn and yields its events as they arrive. Aborting `signal` ends the
 * generator quietly; the server-side turn is stopped by stopTurnAction and keeps
 * the partial reply either way. An event that fails the schema ends the stream with an
 * error event: what follows it cannot be trusted to apply to the same state.
 */
export async function* streamTurn(
  conversationId: string,
  request: TurnBody,
  signal?: AbortSignal,
): AsyncGenerator<TurnEvent> {
  const result = await sendMessageAction({ ...request, conversationId });
  if (!result.ok) throw new TurnRequestError(result.error.message, result.error.code, result.error.fields);
  const reader = result.data.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) return;
      let chunk: ReadableStreamReadResult<unknown>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
      if (chunk.done) return;
      const { event, valid } = checkedEvent(chunk.value);
      yield event;
      if (!valid) {
        cancel();
        return;
      }
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
    reader.releaseLock();
  }
}
