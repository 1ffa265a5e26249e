// Continue after Stop ends like a turn: background compaction is scheduled after it
// exactly when the context is past the pre-emptive level (as runTurn decides), not after
// every continuation and not never.
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { backgroundSettled, pendingBackgroundWork } from "../../lib/chat/compressor";
import { collect, newConversation, saveTestSettings, send, setupHarness } from "../support/harness";

const h = setupHarness();
const MODEL = "gpt-4o-mini";

/** A reply stopped after a few deltas; its seq. */
async function stoppedReply(conversationId: string): Promise<number> {
  h.server.setLatency({ chatLatencyMs: 20 });
  let deltas = 0;
  let seq = 0;
  for await (const event of await ops.startTurn(h.user, { conversationId, content: "REPLY_WORDS=120" })) {
    if (event.type === "delta" && ++deltas === 4) void ops.stop(h.user, conversationId);
    if (event.type === "message" && event.message.role === "assistant") seq = event.message.seq;
  }
  h.server.setLatency({ chatLatencyMs: 0 });
  return seq;
}

/**
 * Continues the stopped reply: whether background work was scheduled for the
 * conversation, and whether the context the continuation ended with (its done event's
 * meter) was past the pre-emptive level, where a turn schedules it.
 */
async function continueAndSee(conversationId: string, seq: number): Promise<{ scheduled: boolean; pastPreemptive: boolean }> {
  const events = await collect(await ops.startTurn(h.user, { conversationId, continueSeq: seq }));
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error(`the continuation ended with ${done?.type ?? "nothing"}`);
  // An in-process run registers synchronously when scheduled: read it before it can finish.
  const pending = pendingBackgroundWork(conversationId);
  const scheduled = (await pending).some((work) => work.where === "in-process");
  await backgroundSettled(conversationId);
  return { scheduled, pastPreemptive: done.context.ratio >= done.context.preemptiveThreshold };
}

describe("background work after Continue", () => {
  it("is scheduled when the context is past the pre-emptive level", async () => {
    const settings = { contextWindowOverrides: { [MODEL]: 3000 }, hardLimitReserve: 300, keepRecentCount: 2, threshold: 0.9, preemptiveThreshold: 0.3 };
    await saveTestSettings(h.db, { ...settings, enabled: false });
    const conversation = await newConversation(MODEL);
    for (let turn = 1; turn <= 5; turn++) await send(conversation.id, `Turn ${turn} REPLY_WORDS=100`);
    await saveTestSettings(h.db, settings);
    const seq = await stoppedReply(conversation.id);
    await backgroundSettled(conversation.id);
    expect(await continueAndSee(conversation.id, seq)).toEqual({ scheduled: true, pastPreemptive: true });
  });

  it("is not scheduled when a turn would not schedule it (context under the pre-emptive level)", async () => {
    const conversation = await newConversation(MODEL);
    const seq = await stoppedReply(conversation.id);
    const seen = await continueAndSee(conversation.id, seq);
    expect(seen).toEqual({ scheduled: false, pastPreemptive: false });
  });
});
