// The Activity panel's pending background work: a compaction job on the real pg-boss
// queue (in this test's database) shows as queued/running in
// GET /api/conversations/:id/attempts for its owner only, and once it has run it is
// gone from there and its attempt is listed instead. A job whose run fails waits for
// its retry ("retrying", with the time of the next attempt) and is run again.
import { afterAll, describe, expect, it } from "vitest";
import * as attemptsRoute from "../../app/api/conversations/[id]/attempts/route";
import { runBackgroundCompaction } from "../../lib/chat/compressor";
import { enqueueCompaction, startQueue, stopQueue } from "../../lib/queue";
import type { ActivityView } from "../../lib/views";
import { bearer, signUp, uniqueEmail } from "../support/accounts";
import { newConversation, saveTestSettings, send, setupHarness } from "../support/harness";
import { TEST_DB } from "./support/database";

const h = setupHarness();
const MODEL = "gpt-4o-mini";

afterAll(async () => {
  await stopQueue(5_000);
});

async function activity(user: { id: string }, conversationId: string): Promise<{ status: number; body: ActivityView }> {
  const request = new Request(`http://localhost/api/conversations/${conversationId}/attempts`, { headers: await bearer(user) });
  const response = await attemptsRoute.GET(request, { params: Promise.resolve({ id: conversationId }) });
  return { status: response.status, body: (await response.json()) as ActivityView };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(TEST_DB === "embedded")("background compaction in the Activity panel", () => {
  it("a queued job shows for its owner only; after it runs it is gone and its attempt is listed", async () => {
    // A context past the pre-emptive level (filled with compression off), then compression on.
    const settings = { contextWindowOverrides: { [MODEL]: 3000 }, hardLimitReserve: 300, keepRecentCount: 2, threshold: 0.9, preemptiveThreshold: 0.3 };
    await saveTestSettings(h.db, { ...settings, enabled: false });
    const conversation = await newConversation(MODEL);
    for (let turn = 1; turn <= 6; turn++) await send(conversation.id, `Turn ${turn} REPLY_WORDS=150`);
    await saveTestSettings(h.db, settings);

    // The worker holds the first job until released, so the panel can see it running.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await startQueue(process.env.DATABASE_URL!, async ({ userId, conversationId }) => {
      await gate;
      await runBackgroundCompaction(userId, conversationId);
    });
    expect((await activity(h.user, conversation.id)).body.background).toEqual([]);

    await enqueueCompaction({ userId: h.user.id, conversationId: conversation.id });
    const first = await activity(h.user, conversation.id);
    expect(first.status).toBe(200);
    expect(first.body.background).toHaveLength(1);
    expect(first.body.background[0]).toMatchObject({ where: "queue", attempt: 1, maxAttempts: 5 });
    expect(["queued", "running"]).toContain(first.body.background[0]!.state);

    const running = await until(
      () => activity(h.user, conversation.id),
      (r) => r.body.background.some((job) => job.state === "running"),
      "the job to run",
    );
    expect(Date.parse(running.body.background[0]!.since)).not.toBeNaN();
    // One more while it runs: the stately queue keeps it waiting behind the running one.
    await enqueueCompaction({ userId: h.user.id, conversationId: conversation.id });
    const both = await activity(h.user, conversation.id);
    expect(both.body.background.map((job) => job.state).sort()).toEqual(["queued", "running"]);

    // Another user sees neither the job nor the conversation.
    const other = await signUp(uniqueEmail("other"));
    const denied = await activity(other, conversation.id);
    expect(denied.status).toBe(404);
    expect(JSON.stringify(denied.body)).not.toContain("queued");

    expect(first.body.attempts.filter((a) => a.background)).toEqual([]);
    release();
    const after = await until(
      () => activity(h.user, conversation.id),
      (r) => r.body.background.length === 0,
      "the jobs to finish",
    );
    // Each job's run is logged as a background attempt (its outcome is the engine's business).
    expect(after.body.attempts.filter((a) => a.background).length).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("a job whose run fails is retried with a delay, shown as retrying meanwhile, and then completes", async () => {
    // This test's worker: the first run of each job fails, the next one succeeds.
    await stopQueue(5_000);
    const runs: string[] = [];
    await startQueue(process.env.DATABASE_URL!, async ({ conversationId }) => {
      runs.push(conversationId);
      if (runs.length === 1) throw new Error("the summary model is down");
    });
    const conversation = await newConversation(MODEL);
    await enqueueCompaction({ userId: h.user.id, conversationId: conversation.id });

    const waiting = await until(
      () => activity(h.user, conversation.id),
      (r) => r.body.background.some((job) => job.state === "retrying"),
      "the failed job to wait for its retry",
    );
    const job = waiting.body.background[0]!;
    expect(job).toMatchObject({ where: "queue", state: "retrying", maxAttempts: 5 });
    expect(Date.parse(job.nextRetryAt!)).toBeGreaterThan(Date.parse(job.since));
    expect(runs).toEqual([conversation.id]);

    await until(
      () => activity(h.user, conversation.id),
      (r) => r.body.background.length === 0,
      "the retried job to complete",
    );
    expect(runs).toEqual([conversation.id, conversation.id]);
  }, 60_000);
});
