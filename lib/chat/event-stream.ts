import type { TurnEvent } from "./events";
import { toActionError } from "../errors";

/**
 * A turn's events as a ReadableStream of objects (a server action's value, or the
 * source of the NDJSON API). The turn runs to its end whatever happens to the reader:
 * a reader that goes away must not leave a reply unsaved, so cancelling only stops
 * the delivery. Stopping the turn itself is the caller's signal (or stopTurnAction).
 */
export function eventStream(events: AsyncGenerator<TurnEvent>): ReadableStream<TurnEvent> {
  let delivering = true;
  return new ReadableStream<TurnEvent>({
    start(controller) {
      void (async () => {
        try {
          for await (const event of events) if (delivering) controller.enqueue(event);
        } catch (error) {
          if (delivering) controller.enqueue({ type: "error", message: toActionError(error).message, retryable: false });
        }
        if (delivering) controller.close();
      })();
    },
    cancel() {
      delivering = false;
    },
  });
}
