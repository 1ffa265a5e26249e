// A running turn as another tab (or device) of its owner sees it: the tab that sent the
// message reads the turn's own stream; any other open view of the conversation asks for
// the live stream and gets what the turn has done so far (its stored messages, the
// compactions it made, the stage it is at, the reply and its thinking streamed up to now) and then every
// event as it happens, until the turn ends. Kept in this process: a turn running on
// another instance is not relayed (the other tab shows the reply once it is stored).
import type { TurnEvent } from "./events";

type Listener = (event: TurnEvent | null) => void;

/** What a late watcher needs to draw the turn as the sending tab draws it, in order. */
type LiveTurn = {
  stored: TurnEvent[];
  status: TurnEvent | null;
  streaming: { model: string; reasoning: string; text: string } | null;
  listeners: Set<Listener>;
};

const globalForLive = globalThis as unknown as { strataLiveTurns?: Map<string, LiveTurn> };
const live = (globalForLive.strataLiveTurns ??= new Map());

/** The events other views act on: the sending tab's own notices (errors, approvals) stay with it or come by polling. */
const RELAYED = new Set<TurnEvent["type"]>(["message", "status", "compaction", "assistant_start", "reasoning", "delta", "done"]);

/** Passes a turn's events through unchanged while other views of the conversation watch them. */
export async function* publishedTurn(conversationId: string, events: AsyncGenerator<TurnEvent>): AsyncGenerator<TurnEvent> {
  const turn: LiveTurn = { stored: [], status: null, streaming: null, listeners: new Set() };
  // One turn at a time per conversation (the turn gate), so one entry per conversation.
  live.set(conversationId, turn);
  try {
    for await (const event of events) {
      remember(turn, event);
      if (RELAYED.has(event.type)) for (const listener of turn.listeners) listener(event);
      yield event;
    }
  } finally {
    if (live.get(conversationId) === turn) live.delete(conversationId);
    for (const listener of turn.listeners) listener(null);
  }
}

function remember(turn: LiveTurn, event: TurnEvent): void {
  switch (event.type) {
    case "message":
    case "compaction":
      turn.stored.push(event);
      if (event.type === "message" && event.message.role === "assistant") turn.streaming = null;
      turn.status = null;
      break;
    case "status":
      turn.status = event;
      break;
    case "assistant_start":
      turn.streaming = { model: event.model, reasoning: "", text: "" };
      turn.status = null;
      break;
    case "reasoning":
      if (turn.streaming) turn.streaming.reasoning += event.text;
      break;
    case "delta":
      if (turn.streaming) turn.streaming.text += event.text;
      break;
    default:
      break;
  }
}

/**
 * The conversation's running turn from now on, starting with what it has done so far;
 * ends at once when no turn of the conversation runs in this process.
 */
export async function* watchTurn(conversationId: string, signal?: AbortSignal): AsyncGenerator<TurnEvent> {
  const turn = live.get(conversationId);
  if (!turn) return;
  const queue: (TurnEvent | null)[] = [];
  let wake: (() => void) | null = null;
  const listener: Listener = (event) => {
    queue.push(event);
    wake?.();
  };
  turn.listeners.add(listener);
  const onAbort = () => listener(null);
  signal?.addEventListener("abort", onAbort, { once: true });
  // Taken in the same step as the listener is added: every later event is queued, none twice.
  const sofar: TurnEvent[] = [...turn.stored];
  if (turn.status) sofar.push(turn.status);
  if (turn.streaming) {
    sofar.push({ type: "assistant_start", model: turn.streaming.model });
    if (turn.streaming.reasoning) sofar.push({ type: "reasoning", text: turn.streaming.reasoning });
    if (turn.streaming.text) sofar.push({ type: "delta", text: turn.streaming.text });
  }
  try {
    yield* sofar;
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      const event = queue.shift()!;
      if (event === null) return;
      yield event;
    }
  } finally {
    turn.listeners.delete(listener);
    signal?.removeEventListener("abort", onAbort);
  }
}
