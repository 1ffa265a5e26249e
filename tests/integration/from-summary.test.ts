// "New conversation from this summary": a compaction of any level starts a new
// conversation of its owner whose first context is the summary, linked back to it.
import { beforeAll, describe, expect, it } from "vitest";
import * as route from "../../app/api/compactions/[id]/conversation/route";
import * as ops from "../../lib/chat/operations";
import { bearer, signUp, type TestUser } from "../support/accounts";
import { chatRequests, newConversation, rowCounts, send, setupHarness } from "../support/harness";

const h = setupHarness();
const SUMMARY = "The user is planning a trip to Lisbon; they chose the tram-28 route and a budget of 900 euros.";

async function sourceWithSummary(): Promise<{ conversationId: string; compactionId: string }> {
  const conversation = await newConversation("gpt-4o-mini", "You are a travel agent.");
  await ops.updateConversation(h.user, { conversationId: conversation.id, title: "Lisbon trip" });
  await send(conversation.id, "Plan a trip to Lisbon for me.");
  await send(conversation.id, "Which tram should I take?");
  const applied = await ops.applyProposal(h.user, { conversationId: conversation.id, summary: SUMMARY, fromSeq: 1, toSeq: 2 });
  expect(applied.compactions).toHaveLength(1);
  return { conversationId: conversation.id, compactionId: applied.compactions[0]!.id };
}

describe("conversation from a summary", () => {
  let other: TestUser;
  beforeAll(async () => {
    other = await signUp();
  });

  it("starts a linked conversation whose first request carries the summary", async () => {
    const source = await sourceWithSummary();
    const created = await ops.conversationFromSummary(h.user, { compactionId: source.compactionId });
    expect(created.title).toBe("From: Lisbon trip");
    expect(created.model).toBe("gpt-4o-mini");
    expect(created.systemPrompt).toBe("You are a travel agent.");
    expect(created.source).toEqual({ conversationId: source.conversationId, compactionId: source.compactionId, title: "Lisbon trip" });

    const stored = await h.db.conversation.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored).toMatchObject({ userId: h.user.id, sourceConversationId: source.conversationId, sourceCompactionId: source.compactionId });
    const reread = await ops.getConversation(h.user, created.id);
    expect(reread.source?.title).toBe("Lisbon trip");

    h.server.reset();
    await send(created.id, "What was my budget again?");
    const sent = (chatRequests(h.server).at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
    // The summary is context (a system entry, as a summary in place is), not a user turn.
    expect(sent.map((m) => m.role)).toEqual(["system", "system", "user"]);
    expect(sent[0]!.content).toContain("You are a travel agent.");
    expect(sent[1]!.content).toContain(SUMMARY);
    expect(sent[1]!.content).toContain("“Lisbon trip”");
    expect(sent[2]!.content).toBe("What was my budget again?");
    // Nothing of the source's own messages came along: only the summary.
    expect(JSON.stringify(sent)).not.toContain("Plan a trip to Lisbon for me.");
  });

  it("starts ready for a first message: the carried-over text is pinned context, no unanswered user turn", async () => {
    const source = await sourceWithSummary();
    const created = await ops.conversationFromSummary(h.user, { compactionId: source.compactionId });
    const timeline = await ops.timeline(h.user, { conversationId: created.id });
    const messages = timeline.items.flatMap((item) => (item.type === "message" ? [item.message] : []));
    expect(messages.map((m) => [m.seq, m.role, m.pinned])).toEqual([[1, "system", true]]);
    expect(messages[0]!.content).toContain(SUMMARY);
    // Exported and imported with the conversation: nothing of the context is lost.
    const exported = await ops.exportConversation(h.user, { conversationId: created.id });
    expect(exported.body).toContain("tram-28 route");
  });

  it("works from a level-2 summary, through the route", async () => {
    const source = await sourceWithSummary();
    const level1 = await h.db.compaction.findUniqueOrThrow({ where: { id: source.compactionId } });
    const { id: _id, createdAt: _created, searchVector: _vector, sections: _sections, ...rest } = level1 as typeof level1 & { searchVector?: unknown };
    const level2 = await h.db.compaction.create({ data: { ...rest, level: 2, summary: "Level two: Lisbon, tram 28, 900 euros." } });
    await h.db.compaction.update({ where: { id: level1.id }, data: { supersededById: level2.id } });

    const response = await route.POST(
      new Request(`http://localhost/api/compactions/${level2.id}/conversation`, { method: "POST", headers: await bearer(h.user) }),
      { params: Promise.resolve({ id: level2.id }) },
    );
    expect(response.status).toBe(201);
    const { conversation } = (await response.json()) as { conversation: { id: string } };
    const timeline = await ops.timeline(h.user, { conversationId: conversation.id });
    expect(timeline.items).toHaveLength(1);
    expect(JSON.stringify(timeline.items[0])).toContain("Level two: Lisbon, tram 28, 900 euros.");
    expect(JSON.stringify(timeline.items[0])).toContain("(level 2)");
  });

  it("answers another user's compaction and an unknown id with not found, writing nothing", async () => {
    const source = await sourceWithSummary();
    const before = await rowCounts(h.db);
    await expect(ops.conversationFromSummary(other, { compactionId: source.compactionId })).rejects.toMatchObject({ code: "not_found" });
    await expect(ops.conversationFromSummary(h.user, { compactionId: "0190a000-0000-7000-8000-000000000000" })).rejects.toMatchObject({ code: "not_found" });
    await expect(ops.conversationFromSummary(h.user, { compactionId: "nope" })).rejects.toMatchObject({ code: "invalid_input" });
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("keeps the copy when the source is deleted; the link then has no title", async () => {
    const source = await sourceWithSummary();
    const created = await ops.conversationFromSummary(h.user, { compactionId: source.compactionId });
    await ops.deleteConversation(h.user, source.conversationId);
    const reread = await ops.getConversation(h.user, created.id);
    expect(reread.source).toEqual({ conversationId: source.conversationId, compactionId: source.compactionId, title: null });
    expect(reread.messageCount).toBe(1);
  });
});
