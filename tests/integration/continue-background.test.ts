// Continue after Stop is a turn's reply written into the stopped one. It ends like a
// turn: background compaction is scheduled after it exactly when the context is past the
// pre-emptive level (as runTurn decides), not after every continuation and not never.
// And it starts like one: the same compress step, told to the browser the same way
// ("compressing" while a summary is written, then the compaction or its failure).
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import type { TurnEvent } from "../../lib/chat/events";
import { backgroundSettled, contextMeter, pendingBackgroundWork } from "../../lib/chat/compressor";
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
    // A target near the threshold: a background compaction here frees enough at once (else it waits for room).
    const settings = { contextWindowOverrides: { [MODEL]: 3000 }, hardLimitReserve: 300, keepRecentCount: 2, threshold: 0.9, preemptiveThreshold: 0.3, compressionTarget: 0.95 };
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

const COMPRESSING = {
  contextWindowOverrides: { [MODEL]: 3000 },
  hardLimitReserve: 300,
  threshold: 0.6,
  preemptiveThreshold: 0,
  keepRecentCount: 2,
  maxSummaryTokensPerLevel: 350,
};

/** A conversation past the threshold (filled with compression off) whose last reply was stopped. */
async function stoppedPastThreshold(): Promise<{ conversationId: string; seq: number }> {
  await saveTestSettings(h.db, { ...COMPRESSING, enabled: false });
  const { id } = await newConversation(MODEL);
  // Well past it: a continuation offers no tools, so it measures its request without their definitions.
  for (let turn = 1; (await contextMeter(h.user.id, id)).ratio < 0.8; turn++) await send(id, `Filling ${turn} REPLY_WORDS=40`);
  const seq = await stoppedReply(id);
  await saveTestSettings(h.db, COMPRESSING);
  return { conversationId: id, seq };
}

/** What the events say before the model's reply starts (the turn's own user message left out). */
function beforeReply(events: TurnEvent[]): TurnEvent["type"][] {
  const start = events.findIndex((e) => e.type === "assistant_start");
  expect(start).toBeGreaterThan(-1);
  return events
    .slice(0, start)
    .map((e) => e.type)
    .filter((type) => type !== "message" && type !== "title");
}

async function turnAndContinuation(): Promise<{ turn: TurnEvent[]; continued: TurnEvent[] }> {
  const first = await stoppedPastThreshold();
  const second = await stoppedPastThreshold();
  const turn = await send(first.conversationId, "Next question REPLY_WORDS=10");
  const continued = await collect(await ops.startTurn(h.user, { conversationId: second.conversationId, continueSeq: second.seq }));
  expect(turn.at(-1)?.type).toBe("done");
  expect(continued.at(-1)?.type).toBe("done");
  return { turn, continued };
}

describe("Continue's events before the model call", () => {
  it("announce a summary before it is written and then report it, as a turn's do", async () => {
    const { turn, continued } = await turnAndContinuation();
    expect(beforeReply(turn)).toEqual(["status", "compaction"]);
    expect(beforeReply(continued)).toEqual(beforeReply(turn));
    const status = continued.find((e) => e.type === "status");
    const compaction = continued.find((e) => e.type === "compaction");
    expect(status?.type === "status" && status.stage === "compressing" && status.messageCount).toBe(
      compaction?.type === "compaction" && compaction.compaction.coveredMessageCount,
    );
  }, 60_000);

  it("report a summary that failed, as a turn's do, and the continuation still arrives", async () => {
    h.server.injectFault({ type: "http_500", target: "summary", times: 2 });
    const { turn, continued } = await turnAndContinuation();
    expect(beforeReply(turn)).toEqual(["status", "compaction_failed"]);
    expect(beforeReply(continued)).toEqual(beforeReply(turn));
    const failed = continued.find((e) => e.type === "compaction_failed");
    expect(failed?.type === "compaction_failed" && failed.attempt.reason).toMatch(/500/);
  }, 60_000);
});
