// The browser's turn reader checks every event against the schema: a malformed one
// becomes an error event and ends the stream, valid ones pass through unchanged.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { TurnEvent } from "@/lib/chat/events";

const sent: { events: unknown[] } = { events: [] };

// The server action is replaced by a stream of whatever the test puts in `sent`.
vi.mock("@/app/actions", () => ({
  sendMessageAction: async () => ({
    ok: true,
    data: new ReadableStream<unknown>({
      start(controller) {
        for (const event of sent.events) controller.enqueue(event);
        controller.close();
      },
    }),
  }),
}));

const { streamTurn } = await import("@/components/stores/stream-turn");

async function receive(events: unknown[]): Promise<TurnEvent[]> {
  sent.events = events;
  const received: TurnEvent[] = [];
  for await (const event of streamTurn("00000000-0000-4000-8000-000000000000", { kind: "send", content: "hi" })) received.push(event);
  return received;
}

describe("streamTurn", () => {
  beforeEach(() => {
    sent.events = [];
  });

  it("passes valid events through unchanged", async () => {
    const events = [
      { type: "status", stage: "compressing", messageCount: 4 },
      { type: "assistant_start", model: "m" },
      { type: "delta", text: "Hello" },
      { type: "done", context: { total: 10 }, version: "4.0.0.0" },
    ];
    expect(await receive(events)).toEqual(events);
  });

  it("turns a malformed event into an error event and reads no further", async () => {
    const received = await receive([{ type: "delta", text: "Hel" }, { type: "delta", text: 42 }, { type: "delta", text: "lo" }]);
    expect(received).toHaveLength(2);
    expect(received[0]).toEqual({ type: "delta", text: "Hel" });
    expect(received[1]).toMatchObject({ type: "error", retryable: false });
    const error = received[1];
    expect(error?.type === "error" ? error.message : "").toMatch(/cannot read \(text: .*expected string/);
  });

  it("refuses an event of an unknown type and one that is not an object", async () => {
    for (const bad of [{ type: "deltas", text: "x" }, "delta", null, { type: "message", message: "not a view" }]) {
      const [event, ...rest] = await receive([bad]);
      expect(event).toMatchObject({ type: "error", retryable: false });
      expect(rest).toEqual([]);
    }
  });
});
