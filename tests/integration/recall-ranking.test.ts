// Automatic recall's search (lib/db/history.ts searchCompressed) on PostgreSQL: which
// compressed originals it returns for a user's message, and in which order. A word most
// compressed messages contain tells nothing; a rare one decides.
import { afterAll, describe, expect, it, vi } from "vitest";

const saved = vi.hoisted(() => {
  const before = process.env.STRATA_SERVER_TIMING;
  // Read when the modules load: the database client reports its queries only with timings on.
  process.env.STRATA_SERVER_TIMING = "1";
  return before;
});

import { searchCompressed } from "../../lib/db/history";
import { withServerTiming } from "../../lib/log/timing";
import { newConversation, setupHarness } from "../support/harness";

afterAll(() => {
  if (saved === undefined) delete process.env.STRATA_SERVER_TIMING;
  else process.env.STRATA_SERVER_TIMING = saved;
});

/** The statements `work` sent to the database, and its result. */
async function counted<T>(work: () => Promise<T>): Promise<{ statements: number; result: T }> {
  let result: T | undefined;
  const response = await withServerTiming(async () => {
    result = await work();
    return new Response(null);
  });
  const db = /(?:^|, )db;dur=[\d.]+;desc="n=(\d+)"/.exec(response.headers.get("server-timing") ?? "");
  return { statements: Number(db?.[1] ?? 0), result: result as T };
}

const h = setupHarness();

/** 40 messages under one summary (the last two kept in view beside it), and two more after it. */
async function compressed(contents: (seq: number) => string) {
  const conversation = await newConversation();
  await h.db.message.createMany({
    data: Array.from({ length: 42 }, (_, index) => ({ conversationId: conversation.id, seq: index + 1, role: index % 2 ? ("assistant" as const) : ("user" as const), content: contents(index + 1), tokenCount: 10 })),
  });
  await h.db.compaction.create({
    data: {
      conversationId: conversation.id, level: 1, kind: "summary", trigger: "auto", strategy: "ai_summary", fromSeq: 1, toSeq: 40, keptSeqs: [39, 40],
      summary: "A summary.", summaryTokens: 3, coveredMessageCount: 38, coveredTokens: 380,
      messagesBefore: 40, messagesAfter: 3, tokensBefore: 400, tokensAfter: 23, durationMs: 1,
    },
  });
  return conversation;
}

describe("searchCompressed", () => {
  it("ranks by the rarest shared words, leaves out messages in view, and returns nothing for ordinary words", async () => {
    const conversation = await compressed((seq) => {
      if (seq === 7) return "The deployment plan uses the zephyrine cluster and the quokka bucket.";
      if (seq === 12) return "Check the deployment plan for the quokka bucket.";
      if (seq === 39 || seq === 41) return "The zephyrine cluster is in view here.";
      return `Message ${seq}: the deployment plan needs another check.`;
    });
    const hits = await searchCompressed(h.db, h.user.id, conversation.id, "What about the zephyrine cluster and the quokka bucket in the deployment plan?", 8);
    // 7 shares two rare words, 12 one; the other compressed messages share only common ones;
    // 39 (kept beside the summary) and 41 (after it) are in view, not compressed.
    expect(hits.map((hit) => hit.seq)).toEqual([7, 12]);
    expect(hits[0]!.rank).toBeGreaterThan(hits[1]!.rank);
    expect(hits[0]!.content).toContain("zephyrine");
    expect(hits[0]!.excerpt).toContain("zephyrine");
    expect(await searchCompressed(h.db, h.user.id, conversation.id, "the deployment plan needs a check", 8)).toEqual([]);
  });

  it("reads only the owner's conversation", async () => {
    const conversation = await compressed((seq) => (seq === 3 ? "The quokka bucket." : `Message ${seq}.`));
    expect(await searchCompressed(h.db, "someone-else", conversation.id, "quokka", 8)).toEqual([]);
    expect((await searchCompressed(h.db, h.user.id, conversation.id, "quokka", 8)).map((hit) => hit.seq)).toEqual([3]);
  });
});

describe("word counts kept for a compressed set", () => {
  const contents = (seq: number) => (seq === 7 ? "The quokka bucket holds the deployment plan." : `Message ${seq}: the deployment plan needs another check.`);
  const question = "Where is the quokka bucket in the deployment plan?";

  it("answer as a fresh read does, read only new words, and make no statement when no word is telling", async () => {
    const conversation = await compressed(contents);
    const fresh = await searchCompressed(h.db, h.user.id, conversation.id, question, 8);
    const first = await counted(() => searchCompressed(h.db, h.user.id, conversation.id, question, 8, "set-1"));
    expect(first.result).toEqual(fresh);
    expect(first.result.map((hit) => hit.seq)).toEqual([7]);
    // The counts and the search.
    expect(first.statements).toBe(2);
    const again = await counted(() => searchCompressed(h.db, h.user.id, conversation.id, question, 8, "set-1"));
    expect(again.result).toEqual(fresh);
    expect(again.statements).toBe(1);
    // Only ordinary words, all looked up before: nothing to search for.
    const ordinary = await counted(() => searchCompressed(h.db, h.user.id, conversation.id, "Where is the deployment plan?", 8, "set-1"));
    expect(ordinary).toEqual({ statements: 0, result: [] });
    // New ordinary words: their counts are read, and no search follows.
    const newWords = await counted(() => searchCompressed(h.db, h.user.id, conversation.id, "the plan needs another check", 8, "set-1"));
    expect(newWords).toEqual({ statements: 1, result: [] });
  });

  it("another compressed set reads its counts afresh", async () => {
    const conversation = await compressed(contents);
    expect((await searchCompressed(h.db, h.user.id, conversation.id, "quokka", 8, "before")).map((hit) => hit.seq)).toEqual([7]);
    // Now most compressed messages name the quokka: it tells nothing any more.
    await h.db.message.updateMany({ where: { conversationId: conversation.id, seq: { lte: 30 } }, data: { content: "The quokka again." } });
    expect(await searchCompressed(h.db, h.user.id, conversation.id, "quokka", 8, "after")).toEqual([]);
  });

  it("are the owner's: another user's call with the same set finds nothing", async () => {
    const conversation = await compressed(contents);
    expect(await searchCompressed(h.db, h.user.id, conversation.id, question, 8, "shared")).not.toEqual([]);
    expect(await searchCompressed(h.db, "someone-else", conversation.id, question, 8, "shared")).toEqual([]);
  });
});
