// Finding one's way in the compaction tree: the path to a message (one read, however
// deep), the pinned originals shown beside top-level blocks, search ranking originals
// above the summaries that retell them, and pinned originals carried into a
// conversation continued from a summary.
import { beforeAll, describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { PINNED_LIST_LIMIT } from "../../lib/db/tree-navigation";
import { balancedTree, chainTree, FIRST_MESSAGE_WORD, insertionOrder, PINNED_SEQ, PINNED_TEXT, type GeneratedTree } from "../support/deep-tree";
import { signUp, type TestUser } from "../support/accounts";
import { chatRequests, refusal, send, setupHarness } from "../support/harness";

const h = setupHarness({ resetEachTest: false });

/** Stores a generated tree as a conversation of the harness user. */
async function store(tree: GeneratedTree, title: string): Promise<string> {
  const { id } = await ops.createConversation(h.user, { title, model: "gpt-4o-mini" });
  await h.db.message.createMany({
    data: tree.messages.map((m) => ({ conversationId: id, seq: m.seq, role: m.role, content: m.content, tokenCount: 20, pinned: m.pinned })),
  });
  await h.db.conversation.update({ where: { id }, data: { lastSeq: tree.messages.length } });
  for (const c of insertionOrder(tree)) {
    await h.db.compaction.create({
      data: {
        id: c.id, conversationId: id, level: c.level, kind: "summary", trigger: "auto", strategy: "ai_summary",
        fromSeq: c.fromSeq, toSeq: c.toSeq, summary: c.summary, summaryTokens: 40, supersededById: c.parentId,
        coveredMessageCount: c.coveredMessageCount, coveredTokens: c.coveredMessageCount * 20,
        messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0, durationMs: 1,
      },
    });
  }
  return id;
}

let other: TestUser;
let chainId: string;
let balancedId: string;
const chain = chainTree(400, 22);
const balanced = balancedTree(400);

beforeAll(async () => {
  other = await signUp();
  chainId = await store(chain, "Deep chain");
  balancedId = await store(balanced, "Balanced");
}, 60_000);

describe("path to a message", () => {
  it("returns the whole chain above message #1 of a level-22 chain, outermost first, in parent order", async () => {
    const { path } = await ops.treePath(h.user, { conversationId: chainId, seq: 1 });
    expect(path.map((step) => step.level)).toEqual(Array.from({ length: 22 }, (_, i) => 22 - i));
    const byId = new Map(chain.compactions.map((c) => [c.id, c]));
    for (let i = 1; i < path.length; i++) expect(byId.get(path[i]!.id)!.parentId).toBe(path[i - 1]!.id);
  });

  it("sends the first page of every level on the way, so one request opens them all", async () => {
    const { path, pages } = await ops.treePath(h.user, { conversationId: chainId, seq: 1 });
    expect(Object.keys(pages).sort()).toEqual(path.map((step) => step.id).sort());
    for (let i = 0; i < path.length - 1; i++) {
      expect(pages[path[i]!.id]!.items.some((item) => item.type === "compaction" && item.compaction.id === path[i + 1]!.id)).toBe(true);
    }
    expect(pages[path.at(-1)!.id]!.items[0]).toMatchObject({ type: "message", message: { seq: 1 } });
    // A few originals past the way down, not every message under the chain: the rest pages in.
    const originals = Object.values(pages).reduce((sum, page) => sum + page.items.filter((item) => item.type === "message").length, 0);
    expect(originals).toBeLessThanOrEqual(path.length * 9);
    expect(Object.values(pages).every((page) => page.nextAfterSeq != null)).toBe(true);
  });

  it("pages each level far enough to hold the next step, however far into the block it starts", async () => {
    const target = chain.compactions.find((c) => c.level === 1)!.toSeq; // the last message of the lowest block
    const { path, pages } = await ops.treePath(h.user, { conversationId: chainId, seq: target });
    const lowest = pages[path.at(-1)!.id]!.items;
    expect(lowest.some((item) => item.type === "message" && item.message.seq === target)).toBe(true);
  });

  it("follows the balanced tree's one branch (height, not every block holding the range)", async () => {
    const { path } = await ops.treePath(h.user, { conversationId: balancedId, seq: 100 });
    expect(path.map((step) => step.level)).toEqual([3, 2, 1]);
    for (const step of path) expect(step.fromSeq <= 100 && 100 <= step.toSeq).toBe(true);
  });

  it("is empty for a message on the top level, and skips undone compactions", async () => {
    expect((await ops.treePath(h.user, { conversationId: chainId, seq: 400 })).path).toEqual([]);
    const fresh = chain.compactions.at(-1)!;
    await h.db.compaction.update({ where: { id: fresh.id }, data: { undoneAt: new Date() } });
    try {
      expect((await ops.treePath(h.user, { conversationId: chainId, seq: fresh.fromSeq })).path).toEqual([]);
    } finally {
      await h.db.compaction.update({ where: { id: fresh.id }, data: { undoneAt: null } });
    }
    expect((await ops.treePath(h.user, { conversationId: chainId, seq: fresh.fromSeq })).path.map((s) => s.id)).toEqual([fresh.id]);
  });

  it("names the conversation's range for a message past its end, and refuses bad input and another user's conversation", async () => {
    const past = await refusal(ops.treePath(h.user, { conversationId: chainId, seq: 401 }));
    expect(past.code).toBe("invalid_input");
    expect(past.message).toContain("#1–#400");
    expect((await refusal(ops.treePath(h.user, { conversationId: chainId, seq: 0 }))).code).toBe("invalid_input");
    expect((await refusal(ops.treePath(other, { conversationId: chainId, seq: 1 }))).code).toBe("not_found");
  });
});

describe("pinned originals under top-level blocks", () => {
  it("lists the pinned message a top-level block covers, and nothing of another user's", async () => {
    const pinned = await ops.coveredPinned(h.user, chainId);
    expect(pinned.map((m) => [m.seq, m.content, m.pinned])).toEqual([[PINNED_SEQ, PINNED_TEXT, true]]);
    expect(PINNED_LIST_LIMIT).toBeGreaterThan(0);
    expect((await refusal(ops.coveredPinned(other, chainId))).code).toBe("not_found");
  });

  it("leaves out pinned messages shown on the top level anyway", async () => {
    await h.db.message.updateMany({ where: { conversationId: chainId, seq: 400 }, data: { pinned: true } });
    try {
      expect((await ops.coveredPinned(h.user, chainId)).map((m) => m.seq)).toEqual([PINNED_SEQ]);
    } finally {
      await h.db.message.updateMany({ where: { conversationId: chainId, seq: 400 }, data: { pinned: false } });
    }
  });
});

describe("search ranks originals above the summaries that retell them", () => {
  it("puts message #1 above every summary that repeats its word", async () => {
    // Every level of the chain retells message #1's word, more often than #1 says it.
    for (const c of chain.compactions.slice(0, 22)) {
      await h.db.compaction.update({
        where: { id: c.id },
        data: { summary: `${c.summary}\n${FIRST_MESSAGE_WORD} ${FIRST_MESSAGE_WORD} ${FIRST_MESSAGE_WORD} cargo and crates of ${FIRST_MESSAGE_WORD}.` },
      });
    }
    const hits = await ops.search(h.user, { q: FIRST_MESSAGE_WORD, conversationId: chainId, limit: 30 });
    expect(hits.length).toBe(23);
    expect(hits[0]).toMatchObject({ kind: "message", seq: 1 });
    expect(hits.slice(1).every((hit) => hit.kind === "summary")).toBe(true);
  });
});

describe("new conversation from a summary carries pinned originals", () => {
  it("adds them verbatim as a pinned second (system) message, in the model's first request", async () => {
    const top = chain.compactions.find((c) => c.level === 22)!;
    const created = await ops.conversationFromSummary(h.user, { compactionId: top.id });
    const rows = await h.db.message.findMany({ where: { conversationId: created.id }, orderBy: { seq: "asc" } });
    expect(rows.map((m) => [m.seq, m.role, m.pinned])).toEqual([[1, "system", true], [2, "system", true]]);
    expect(rows[1]!.content).toContain(PINNED_TEXT);
    expect(rows[1]!.content).toContain(`#${PINNED_SEQ}`);
    expect((await h.db.conversation.findUniqueOrThrow({ where: { id: created.id } })).lastSeq).toBe(2);

    h.server.reset();
    await send(created.id, "What is the vault combination?");
    const sent = JSON.stringify(chatRequests(h.server).at(-1)!.body);
    expect(sent).toContain(PINNED_TEXT);
  });

  it("adds nothing when the range holds no pinned message", async () => {
    const fresh = chain.compactions.at(-1)!;
    const created = await ops.conversationFromSummary(h.user, { compactionId: fresh.id });
    expect(await h.db.message.count({ where: { conversationId: created.id } })).toBe(1);
  });
});
