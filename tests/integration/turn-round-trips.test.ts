// The database round trips of a turn, counted as the benchmark counts them
// (bench/turn-overhead.ts: every query Prisma sends while the request runs). A turn's
// statements are merged on purpose: the user's message, the turn lease, the send count
// and the turn's settings in one statement, the final reply and the lease's release in
// another (lib/db/turn-lease.ts), and the context comes from this process's copy
// (lib/db/context-cache.ts). A change that adds a round trip to every turn shows here.
import { afterAll, describe, expect, it, vi } from "vitest";

const saved = vi.hoisted(() => {
  const before = { timing: process.env.STRATA_SERVER_TIMING, limit: process.env.STRATA_MESSAGE_RATE_LIMIT };
  // Read when the modules load: the database client reports its queries only with timings on.
  process.env.STRATA_SERVER_TIMING = "1";
  // The send limit on, as for every user: the send is counted in the message's statement.
  process.env.STRATA_MESSAGE_RATE_LIMIT = "1000000";
  return before;
});

import { withServerTiming } from "../../lib/log/timing";
import { newConversation, send, setupHarness } from "../support/harness";

setupHarness();

afterAll(() => {
  for (const [name, value] of [["STRATA_SERVER_TIMING", saved.timing], ["STRATA_MESSAGE_RATE_LIMIT", saved.limit]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The queries `work` sent to the database. */
async function roundTrips(work: () => Promise<unknown>): Promise<number> {
  const response = await withServerTiming(async () => {
    await work();
    return new Response(null);
  });
  const db = /(?:^|, )db;dur=[\d.]+;desc="n=(\d+)"/.exec(response.headers.get("server-timing") ?? "");
  return Number(db?.[1] ?? 0);
}

// What a turn reads and writes, one round trip each: the statement storing the message
// (with the lease, the send count, the settings, the reply temperature, the tool servers
// in use and the conversation row); the statement storing the reply (releasing the
// lease, and answering the conversation's change version for the `done` event, so the
// sending tab's poll does not take its own turn for another device's). The context
// itself, and whether anything is compressed (the history tools' offer): none, from this
// process's copy.
const PER_TURN = 2;

describe("round trips of a turn", () => {
  it("a message to a conversation this process served reads no context, and costs nothing beyond its own statements and the turn's settings", async () => {
    const conversation = await newConversation();
    await send(conversation.id, "the first message names the conversation and reads its context");
    for (const content of ["a second message", "a third one"]) {
      let events: Awaited<ReturnType<typeof send>> = [];
      expect(await roundTrips(async () => (events = await send(conversation.id, content)))).toBe(PER_TURN);
      expect(events.at(-1)?.type).toBe("done");
    }
  });
});
