import type { TurnEvent } from "./events";
import { toActionError } from "./result";

/**
 * A turn's events as a ReadableStream of objects, which React's Flight protocol
 * streams to the browser as the value of a server action. A failure after the
 * stream started becomes a final error event.
 */
export function eventStream(events: AsyncGenerator<TurnEvent>): ReadableStream<TurnEvent> {
  return new ReadableStream<TurnEvent>({
    async pull(controller) {
      try {
        const next = await events.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.enqueue({ type: "error", message: toActionError(error).message, retryable: false });
        controller.close();
      }
    },
    async cancel() {
      await events.return(undefined);
    },
  });
}
