import type { TurnEvent } from "./events";
import { toActionError } from "../errors";

/**
 * Reply text is sent at most this often. Models stream a token or a few per chunk, every
 * 10–50 ms; each event sent costs the server a write (and the browser a render), and at a
 * few hundred streaming conversations those writes are most of what an instance spends
 * per turn. A tenth of a second still reads as continuous typing.
 */
export const DELTA_INTERVAL_MS = 100;

/**
 * A turn's events as a ReadableStream: of the events themselves (a server action's value),
 * or of each event as `encode` gives it (the NDJSON API's lines, without a second stream
 * to pass every event through). The turn runs to its end whatever happens to the reader:
 * a reader that goes away must not leave a reply unsaved, so cancelling only stops
 * the delivery. Stopping the turn itself is the caller's signal (or stopTurnAction).
 *
 * Reply text (and thinking) that arrives within DELTA_INTERVAL_MS of the last text sent
 * is held and sent as one event: at the interval's end, or at once before any other
 * event (thinking before text included), so the order of events never changes. The first
 * text of a reply goes out at once.
 */
export function eventStream(events: AsyncGenerator<TurnEvent>): ReadableStream<TurnEvent>;
export function eventStream<T>(events: AsyncGenerator<TurnEvent>, encode: (event: TurnEvent) => T): ReadableStream<T>;
export function eventStream<T>(events: AsyncGenerator<TurnEvent>, encode?: (event: TurnEvent) => T): ReadableStream<T | TurnEvent> {
  let delivering = true;
  return new ReadableStream<T | TurnEvent>({
    start(controller) {
      const enqueue = (event: TurnEvent) => {
        if (delivering) controller.enqueue(encode ? encode(event) : event);
      };
      const text = heldText(enqueue);
      void (async () => {
        try {
          for await (const event of events) {
            if (event.type === "delta" || event.type === "reasoning") text.add(event.type, event.text);
            else {
              text.end();
              enqueue(event);
            }
          }
          text.end();
        } catch (error) {
          text.end();
          enqueue({ type: "error", message: toActionError(error).message, retryable: false });
        }
        if (delivering) controller.close();
      })();
    },
    cancel() {
      delivering = false;
    },
  });
}

type HeldKind = Extract<TurnEvent["type"], "delta" | "reasoning">;

/** Reply text (or thinking) waiting to be sent, and the timer that sends it. `end` sends what is held; the next text after it goes out at once. */
function heldText(send: (event: TurnEvent) => void): { add: (kind: HeldKind, text: string) => void; end: () => void } {
  let held = "";
  let heldKind: HeldKind = "delta";
  let lastSent = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (held === "") return;
    const text = held;
    held = "";
    lastSent = Date.now();
    send({ type: heldKind, text });
  };
  return {
    add(kind, text) {
      if (kind !== heldKind) {
        // Thinking done, the answer begins: its first text goes out at once too.
        flush();
        lastSent = Number.NEGATIVE_INFINITY;
        heldKind = kind;
      }
      held += text;
      const wait = lastSent + DELTA_INTERVAL_MS - Date.now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    end() {
      flush();
      lastSent = Number.NEGATIVE_INFINITY;
    },
  };
}
