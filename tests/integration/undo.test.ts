// "Undo this compaction" through the real database and chat loop, judged from what a
// model server that shares nothing with the app (tests/support/outside-model) receives.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { backgroundSettled } from "../../lib/chat/compressor";
import { openTurnGate } from "../../lib/chat/concurrency";
import { loadTimeline } from "../../lib/db/compactions";
import { exportConversation } from "../../lib/db/export";
import { importConversation } from "../../lib/db/import";
import { signUp } from "../support/accounts";
import { newConversation, refusal, saveTestSettings, send, setupHarness } from "../support/harness";
import { startOutsideModel, type OutsideModel, type RecordedRequest } from "../support/outside-model/server";

const h = setupHarness();
let outside: OutsideModel;
const MODEL = "outside-small";

beforeAll(async () => {
  outside = await startOutsideModel({ summaryMode: "terse", seed: 11 });
  process.env.OPENAI_BASE_URL = outside.url;
});
beforeEach(() => {
  outside.reset();
  outside.configure({ summaryMode: "terse", titles: "follow", failRate: 0, usage: "always", contextWindow: undefined });
});
afterAll(async () => {
  await outside.close();
});

type SentMessage = { role: string; content?: string | null };
const sentMessages = (request: RecordedRequest): SentMessage[] => (request.body as { messages?: SentMessage[] }).messages ?? [];

function requestText(request: RecordedRequest): string {
  return sentMessages(request).map((m) => m.content ?? "").join("\n");
}

/** The user messages the request carries as messages of their own (a summary may quote them too). */
const userTurns = (request: RecordedRequest) => sentMessages(request).filter((m) => m.role === "user").map((m) => m.content ?? "");

const lastChat = () => outside.requests().filter((r) => r.kind === "chat").at(-1)!;

/** Six turns, each with a word that only its message holds. */
async function converse(conversationId: string) {
  for (let turn = 1; turn <= 6; turn++) {
    const events = await send(conversationId, `Turn ${turn}: remember the token original${turn}word. <<reply 40>>`);
    expect(events.find((e) => e.type === "error")).toBeUndefined();
  }
  await backgroundSettled(conversationId);
}

const contextVersion = async (id: string) => (await h.db.conversation.findUniqueOrThrow({ where: { id } })).contextVersion;

/** A hand-made summary row (the tree's shape is what the test is about, not how a summarizer wrote it). */
function summaryRow(conversationId: string, level: number, fromSeq: number, toSeq: number, summary: string) {
  return h.db.compaction.create({
    data: {
      conversationId,
      level,
      kind: "summary",
      trigger: "manual",
      strategy: "ai_summary",
      fromSeq,
      toSeq,
      summary,
      title: summary.slice(0, 30),
      summaryTokens: 20,
      coveredMessageCount: toSeq - fromSeq + 1,
      coveredTokens: 400,
      messagesBefore: 12,
      messagesAfter: 8,
      tokensBefore: 800,
      tokensAfter: 400,
      durationMs: 1,
    },
  });
}

describe("undo a compaction", () => {
  it("gives the original messages back to the model's next request, the summary no longer in it, and keeps the record marked undone", async () => {
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 16384 }, keepRecentCount: 2 });
    const conversation = await newConversation(MODEL);
    await converse(conversation.id);
    const compacted = await ops.compactNow(h.user, { conversationId: conversation.id });
    const summary = compacted.compactions.find((c) => c.kind === "summary");
    expect(summary).toBeDefined();
    if (!summary) return;
    await send(conversation.id, "Before the undo. <<reply 20>>");
    const header = `[Summary of messages ${summary.fromSeq}–${summary.toSeq} (level 1)]`;
    expect(requestText(lastChat())).toContain(header);
    expect(userTurns(lastChat()).some((text) => text.includes("original1word"))).toBe(false);

    const version = await contextVersion(conversation.id);
    const result = await ops.undoCompaction(h.user, { compactionId: summary.id });
    expect(result).toMatchObject({ conversationId: conversation.id, compactionId: summary.id, restoredCompactions: 0 });
    expect(result.restoredMessages).toBe(summary.coveredMessageCount);
    // The trigger moved the context version: a copy of the context kept in memory is stale.
    expect(await contextVersion(conversation.id)).toBeGreaterThan(version);

    await send(conversation.id, "After the undo. <<reply 20>>");
    expect(requestText(lastChat())).not.toContain(header);
    const turns = userTurns(lastChat());
    for (let turn = 1; turn <= 6; turn++) if (turn * 2 - 1 <= summary.toSeq) expect(turns.some((text) => text.includes(`original${turn}word`))).toBe(true);

    const row = await h.db.compaction.findUniqueOrThrow({ where: { id: summary.id } });
    expect(row.undoneAt).not.toBeNull();
    expect(row.undoneBy).toBe(h.user.id);
    // The timeline shows it, marked undone, above the messages it gave back.
    const { items } = await loadTimeline(h.db, h.user.id, conversation.id, { limit: 100 });
    const at = items.findIndex((item) => item.type === "undone" && item.compaction.id === summary.id);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(items[at + 1]).toMatchObject({ type: "message", message: { seq: summary.fromSeq } });
    expect(items.some((item) => item.type === "compaction" && item.compaction.id === summary.id)).toBe(false);
    // The Activity panel lists who undid it, and when.
    const activity = await ops.attempts(h.user, conversation.id);
    expect(activity.undone).toEqual([expect.objectContaining({ compactionId: summary.id, by: h.user.name, at: result.undoneAt })]);

    // Undoing it again is refused, and so is a turn-holding conversation.
    expect((await refusal(ops.undoCompaction(h.user, { compactionId: summary.id }))).code).toBe("conflict");
  }, 120_000);

  it("undoing a merge brings its children back into the request, not its own text", async () => {
    const conversation = await newConversation(MODEL);
    await converse(conversation.id);
    const a = await summaryRow(conversation.id, 1, 1, 4, "Childalpha summary: turns one and two.");
    const b = await summaryRow(conversation.id, 1, 5, 8, "Childbeta summary: turns three and four.");
    const top = await summaryRow(conversation.id, 2, 1, 8, "Parentgamma summary of turns one to four.");
    await h.db.compaction.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { supersededById: top.id } });

    // A child merged into the top one is refused, naming the top one.
    const merged = await refusal(ops.undoCompaction(h.user, { compactionId: a.id }));
    expect(merged.code).toBe("conflict");
    expect(merged.message).toContain("level 2 summary of #1–#8");

    await send(conversation.id, "Before. <<reply 20>>");
    expect(requestText(lastChat())).toContain("Parentgamma");
    const result = await ops.undoCompaction(h.user, { compactionId: top.id });
    expect(result).toMatchObject({ restoredCompactions: 2, restoredMessages: 0 });
    await send(conversation.id, "After. <<reply 20>>");
    const after = requestText(lastChat());
    expect(after).toContain("Childalpha");
    expect(after).toContain("Childbeta");
    expect(after).not.toContain("Parentgamma");
    expect(userTurns(lastChat()).some((text) => text.includes("original1word"))).toBe(false);
    const rows = await h.db.compaction.findMany({ where: { conversationId: conversation.id }, orderBy: { level: "asc" } });
    expect(rows.map((row) => [row.level, row.supersededById, row.undoneAt !== null])).toEqual([
      [1, null, false],
      [1, null, false],
      [2, null, true],
    ]);

    // Export and import keep the undone state, who undid it (the importer now) and when.
    const exported = await exportConversation(h.db, h.user.id, conversation.id);
    const copy = await importConversation(h.db, h.user.id, [new TextEncoder().encode(JSON.stringify(exported))]);
    const copied = await h.db.compaction.findMany({ where: { conversationId: copy.id }, orderBy: { level: "asc" } });
    expect(copied.map((row) => [row.level, row.supersededById, row.undoneAt?.toISOString() ?? null, row.undoneBy])).toEqual([
      [1, null, null, null],
      [1, null, null, null],
      [2, null, rows[2]!.undoneAt!.toISOString(), h.user.id],
    ]);
  }, 120_000);

  it("refuses while a turn holds the conversation (409 busy), and answers 404 for another user's compaction", async () => {
    const conversation = await newConversation(MODEL);
    await converse(conversation.id);
    const row = await summaryRow(conversation.id, 1, 1, 4, "Holdsummary of the first turns.");

    const gate = await openTurnGate(h.user.id, conversation.id);
    try {
      const busy = await refusal(ops.undoCompaction(h.user, { compactionId: row.id }));
      expect(busy.code).toBe("busy");
      expect(busy.status).toBe(409);
    } finally {
      await gate.close();
    }
    expect((await h.db.compaction.findUniqueOrThrow({ where: { id: row.id } })).undoneAt).toBeNull();

    const stranger = await signUp();
    const foreign = await refusal(ops.undoCompaction(stranger, { compactionId: row.id }));
    expect(foreign.code).toBe("not_found");
    const unknown = await refusal(ops.undoCompaction(h.user, { compactionId: "0195f2a0-0000-7000-8000-000000000000" }));
    expect(unknown.code).toBe("not_found");
    expect((await refusal(ops.undoCompaction(h.user, { compactionId: "not-an-id" }))).code).toBe("invalid_input");
    expect((await h.db.compaction.findUniqueOrThrow({ where: { id: row.id } })).undoneAt).toBeNull();
  }, 120_000);
});
