// Automatic recall's search (lib/db/history.ts searchCompressed) on PostgreSQL: which
// compressed originals it returns for a user's message, and in which order. A word most
// compressed messages contain tells nothing; a rare one decides.
import { describe, expect, it } from "vitest";
import { searchCompressed } from "../../lib/db/history";
import { newConversation, setupHarness } from "../support/harness";

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
