import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DELTA_INTERVAL_MS, eventStream } from "@/lib/chat/event-stream";
import type { TurnEvent } from "@/lib/chat/events";

// A turn whose events arrive at given moments (ms after the start, on fake timers).
async function* timed(script: [number, TurnEvent][]): AsyncGenerator<TurnEvent> {
  let now = 0;
  for (const [at, event] of script) {
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
    now = at;
    yield event;
  }
}

/** Reads the stream to its end, noting the fake time each event is delivered at. */
async function deliveries(stream: ReadableStream<TurnEvent>): Promise<[number, TurnEvent][]> {
  const reader = stream.getReader();
  const start = Date.now();
  const seen: [number, TurnEvent][] = [];
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen.push([Date.now() - start, value]);
    }
  })();
  await vi.runAllTimersAsync();
  await reading;
  return seen;
}

const delta = (text: string): TurnEvent => ({ type: "delta", text });

describe("eventStream: reply text sent at most every DELTA_INTERVAL_MS", () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it("sends the first text at once and joins what follows within the interval, losing nothing", async () => {
    const script: [number, TurnEvent][] = [[0, { type: "assistant_start", model: "m" }]];
    // Ten pieces 20 ms apart: 200 ms of text.
    for (let i = 0; i < 10; i++) script.push([i * 20, delta(`w${i} `)]);
    const seen = await deliveries(eventStream(timed(script)));
    const deltas = seen.filter(([, event]) => event.type === "delta");
    expect(deltas[0]).toEqual([0, delta("w0 ")]);
    expect(deltas.map(([, event]) => (event as { text: string }).text).join("")).toBe(script.slice(1).map(([, event]) => (event as { text: string }).text).join(""));
    // One delta per interval, and what is held when the reply ends goes out then: 3, not 10.
    expect(deltas.map(([at]) => at)).toEqual([0, DELTA_INTERVAL_MS, 180]);
  });

  it("never holds text past the interval, even when the model pauses", async () => {
    const seen = await deliveries(eventStream(timed([[0, delta("a")], [10, delta("b")], [5_000, delta("c")]])));
    expect(seen).toEqual([
      [0, delta("a")],
      [DELTA_INTERVAL_MS, delta("b")],
      [5_000, delta("c")],
    ]);
  });

  it("sends held text before any other event, so the order never changes", async () => {
    const message: TurnEvent = { type: "status", stage: "compressing", messageCount: 3 };
    const seen = await deliveries(eventStream(timed([[0, delta("a")], [10, delta("b")], [20, message], [30, delta("c")], [40, { type: "done" } as TurnEvent]])));
    expect(seen.map(([at, event]) => [at, event.type === "delta" ? event.text : event.type])).toEqual([
      [0, "a"],
      [20, "b"],
      [20, "status"],
      // After another event the next text goes out at once.
      [30, "c"],
      [40, "done"],
    ]);
  });

  it("joins thinking like text, sends it before the answer, and the answer's first text at once", async () => {
    const thinking = (text: string): TurnEvent => ({ type: "reasoning", text });
    const seen = await deliveries(eventStream(timed([[0, thinking("a")], [10, thinking("b")], [20, thinking("c")], [30, delta("x")], [40, delta("y")], [50, { type: "done" } as TurnEvent]])));
    expect(seen.map(([at, event]) => [at, event.type, "text" in event ? event.text : ""])).toEqual([
      [0, "reasoning", "a"],
      [30, "reasoning", "bc"],
      [30, "delta", "x"],
      [50, "delta", "y"],
      [50, "done", ""],
    ]);
  });

  it("sends held text before the error of a turn that throws", async () => {
    async function* failing(): AsyncGenerator<TurnEvent> {
      yield delta("a");
      yield delta("b");
      throw new Error("boom");
    }
    const seen = await deliveries(eventStream(failing()));
    expect(seen.map(([, event]) => event.type === "delta" ? event.text : event.type)).toEqual(["a", "b", "error"]);
  });
});
