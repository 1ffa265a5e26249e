// Versions and Continue, end to end: operations → real database → the real HTTP test
// model server, whose recorded requests show which branch the model was given.
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import type { TurnEvent } from "../../lib/chat/events";
import { countRequestTokens } from "../../lib/llm/tokens";
import type { MessageView } from "../../lib/views";
import { signUp } from "../support/accounts";
import { chatRequests, collect, newConversation, refusal, send, setupHarness } from "../support/harness";

const h = setupHarness();

type Sent = { role: string; content: string | null };

/** The messages of the model's last chat request, without the system prompt. */
function lastRequest(): Sent[] {
  const body = chatRequests(h.server).at(-1)!.body as { messages: Sent[] };
  return body.messages.filter((m) => m.role !== "system");
}

async function shown(conversationId: string): Promise<MessageView[]> {
  const { items } = await ops.timeline(h.user, { conversationId });
  return items.flatMap((item) => (item.type === "message" ? [item.message] : []));
}

/** The count the sidebar and the conversation's view give: what the timeline shows. */
async function expectCountOfShown(conversationId: string): Promise<void> {
  const count = (await shown(conversationId)).length;
  expect((await ops.listConversations(h.user)).find((c) => c.id === conversationId)?.messageCount).toBe(count);
  expect((await ops.getConversation(h.user, conversationId)).messageCount).toBe(count);
}

async function row(conversationId: string, seq: number) {
  return h.db.message.findUniqueOrThrow({ where: { conversationId_seq: { conversationId, seq } } });
}

const regenerate = async (conversationId: string, seq: number) =>
  collect(await ops.startTurn(h.user, { conversationId, regenerateSeq: seq }));

/** A conversation of three exchanges: seqs 1–6, user messages "first", "second", "third". */
async function threeTurns() {
  const conversation = await newConversation();
  for (const content of ["first", "second", "third"]) await send(conversation.id, content);
  return conversation.id;
}

describe("regenerating a reply keeps the previous one as a version", () => {
  it("regenerates a middle reply: the model sees only what came before it, the old branch is kept", async () => {
    const conversationId = await threeTurns();
    const old = await row(conversationId, 2);
    const events = await regenerate(conversationId, 2);
    expect(events.at(-1)?.type).toBe("done");
    // The model was asked to answer "first" again, without the later turns.
    expect(lastRequest().map((m) => [m.role, m.content])).toEqual([["user", "first"]]);
    const view = await shown(conversationId);
    expect(view.map((m) => m.seq)).toEqual([1, 7]);
    // The later turns hidden with the old reply are counted, for the notice where they were.
    expect(view[1]!.versions).toEqual({ ids: [old.id, view[1]!.id], current: 1, elsewhere: 4 });
    // Nothing was deleted: the old reply and the turns after it are hidden, kept as its branch.
    const hidden = await h.db.message.findMany({ where: { conversationId, seq: { gte: 2, lte: 6 } }, orderBy: { seq: "asc" } });
    expect(hidden.map((m) => [m.rewoundAt != null, m.branchOf])).toEqual(Array(5).fill([true, old.id]));
    expect((await row(conversationId, 7)).versionOf).toBe(old.id);
  });

  it("switching versions swaps the whole tail: the next request carries the selected branch", async () => {
    const conversationId = await threeTurns();
    const first = await row(conversationId, 2);
    await regenerate(conversationId, 2);
    await send(conversationId, "fourth, on the new branch");
    expect(lastRequest().map((m) => m.content?.slice(0, 6))).toEqual(["first", expect.any(String), "fourth"]);
    const second = await row(conversationId, 7);

    expect(await ops.switchVersion(h.user, { conversationId, messageId: first.id })).toEqual({ switched: true });
    let view = await shown(conversationId);
    expect(view.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    await expectCountOfShown(conversationId);
    expect(view[1]!.versions).toEqual({ ids: [first.id, second.id], current: 0, elsewhere: 2 });
    await send(conversationId, "fifth, on the old branch");
    expect(lastRequest().filter((m) => m.role === "user").map((m) => m.content)).toEqual(["first", "second", "third", "fifth, on the old branch"]);

    // Back again: the new branch comes back as it was left, its own later turn included.
    await ops.switchVersion(h.user, { conversationId, messageId: second.id });
    view = await shown(conversationId);
    expect(view.map((m) => m.seq)).toEqual([1, 7, 8, 9]);
    await expectCountOfShown(conversationId);
    await send(conversationId, "sixth");
    expect(lastRequest().filter((m) => m.role === "user").map((m) => m.content)).toEqual(["first", "fourth, on the new branch", "sixth"]);
    // Switching to the version already shown changes nothing.
    expect(await ops.switchVersion(h.user, { conversationId, messageId: second.id })).toEqual({ switched: false });
  });

  it("keeps nested versions: a later place's choice survives a switch of an earlier place", async () => {
    const conversationId = await threeTurns();
    const a2 = await row(conversationId, 2);
    await regenerate(conversationId, 4); // seq 7: a version of the second reply; 5–6 hidden
    const a4 = await row(conversationId, 4);
    const a4b = await row(conversationId, 7);
    await ops.switchVersion(h.user, { conversationId, messageId: a4.id }); // 4–6 shown, 7 kept
    await regenerate(conversationId, 2); // seq 8; everything from 2 kept as a2's branch
    await ops.switchVersion(h.user, { conversationId, messageId: a2.id });
    const view = await shown(conversationId);
    expect(view.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(view[3]!.versions).toEqual({ ids: [a4.id, a4b.id], current: 0, elsewhere: 0 });
  });

  it("regenerates a reply that used a tool from its first message, whichever message was asked", async () => {
    const conversation = await newConversation();
    await send(conversation.id, "what time is it?");
    const call = await row(conversation.id, 2);
    await regenerate(conversation.id, 4);
    const view = await shown(conversation.id);
    expect(view.map((m) => [m.seq, m.role])).toEqual([
      [1, "user"],
      [5, "assistant"],
      [6, "tool"],
      [7, "assistant"],
    ]);
    expect(view[1]!.versions?.ids).toEqual([call.id, view[1]!.id]);
  });

  it("shows the previous reply again when the new one fails before any text", async () => {
    const conversationId = await threeTurns();
    h.server.injectFault({ type: "http_500", target: "chat" });
    const events = await regenerate(conversationId, 4);
    expect(events.some((e) => e.type === "error")).toBe(true);
    expect((await shown(conversationId)).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await row(conversationId, 4)).branchOf).toBeNull();
  });

  it("undoes a compaction that covers the regenerated reply (the rewind's own rule)", async () => {
    const conversationId = await threeTurns();
    const compaction = await h.db.compaction.create({
      data: {
        conversationId, level: 1, kind: "summary", trigger: "manual", strategy: "ai_summary", fromSeq: 1, toSeq: 4,
        summary: "Two exchanges.", summaryTokens: 4, coveredMessageCount: 4, coveredTokens: 40,
        messagesBefore: 6, messagesAfter: 3, tokensBefore: 60, tokensAfter: 24, durationMs: 1,
      },
    });
    await regenerate(conversationId, 4);
    expect((await h.db.compaction.findUniqueOrThrow({ where: { id: compaction.id } })).undoneAt).not.toBeNull();
    expect(lastRequest().map((m) => m.content)).toEqual(["first", expect.any(String), "second"]);
  });

  it("refuses what is not a finished reply, and a regenerate while a turn runs", async () => {
    const conversationId = await threeTurns();
    expect((await refusal(ops.startTurn(h.user, { conversationId, regenerateSeq: 3 }))).code).toBe("invalid_input");
    expect((await refusal(ops.startTurn(h.user, { conversationId, regenerateSeq: 99 }))).code).toBe("not_found");
    const running = await ops.startTurn(h.user, { conversationId, content: "fourth REPLY_WORDS=30" });
    expect((await refusal(ops.startTurn(h.user, { conversationId, regenerateSeq: 2 }))).code).toBe("busy");
    const message = await row(conversationId, 2);
    expect((await refusal(ops.switchVersion(h.user, { conversationId, messageId: message.id }))).code).toBe("busy");
    await collect(running);
    // Nothing was rewound by the refusals.
    expect((await shown(conversationId)).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe("editing a message keeps the old text as a version", () => {
  it("switches between the edited and the original message with their own replies", async () => {
    const conversation = await newConversation();
    await send(conversation.id, "alpha");
    await send(conversation.id, "beta");
    const beta = await row(conversation.id, 3);
    await collect(await ops.startTurn(h.user, { conversationId: conversation.id, editSeq: 3, content: "gamma" }));
    let view = await shown(conversation.id);
    expect(view.map((m) => [m.seq, m.content.slice(0, 5)])).toEqual([[1, "alpha"], [2, expect.any(String)], [5, "gamma"], [6, expect.any(String)]]);
    expect(view[2]!.versions).toEqual({ ids: [beta.id, view[2]!.id], current: 1, elsewhere: 1 });
    expect((await row(conversation.id, 3)).branchOf).toBe(beta.id);

    await ops.switchVersion(h.user, { conversationId: conversation.id, messageId: beta.id });
    view = await shown(conversation.id);
    expect(view.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    await send(conversation.id, "delta");
    expect(lastRequest().filter((m) => m.role === "user").map((m) => m.content)).toEqual(["alpha", "beta", "delta"]);
  });
});

describe("Continue after Stop", () => {
  async function stoppedReply(conversationId: string): Promise<string> {
    h.server.setLatency({ chatLatencyMs: 20 });
    const seen: string[] = [];
    for await (const event of await ops.startTurn(h.user, { conversationId, content: "REPLY_WORDS=200" })) {
      if (event.type === "delta" && seen.push(event.text) === 4) void ops.stop(h.user, conversationId);
    }
    h.server.setLatency({ chatLatencyMs: 0 });
    return seen.join("");
  }

  it("gives the model the partial reply as its last message and appends what it writes", async () => {
    const conversation = await newConversation();
    const partial = await stoppedReply(conversation.id);
    expect((await row(conversation.id, 2)).status).toBe("stopped");
    const events: TurnEvent[] = await collect(await ops.startTurn(h.user, { conversationId: conversation.id, continueSeq: 2 }));
    expect(events.at(-1)?.type).toBe("done");
    expect(lastRequest()).toEqual([
      { role: "user", content: "REPLY_WORDS=200" },
      { role: "assistant", content: partial },
    ]);
    const continued = events.filter((e) => e.type === "delta").map((e) => (e.type === "delta" ? e.text : "")).join("");
    const stored = await row(conversation.id, 2);
    expect(stored.content).toBe(partial + continued);
    expect(continued.length).toBeGreaterThan(0);
    expect(stored.status).toBe("complete");
    // Still one reply: no message was added.
    expect(await h.db.message.count({ where: { conversationId: conversation.id } })).toBe(2);
  });

  it("puts a space between a reply stopped after a word and a continuation that starts a new word", async () => {
    const conversation = await newConversation();
    const partial = await stoppedReply(conversation.id);
    // The test model streams words with their space in front: a reply stopped between chunks ends with a word.
    expect(partial).toMatch(/\S$/);
    const events: TurnEvent[] = await collect(await ops.startTurn(h.user, { conversationId: conversation.id, continueSeq: 2 }));
    const continued = events.filter((e) => e.type === "delta").map((e) => (e.type === "delta" ? e.text : "")).join("");
    // The continuation is a completion of its own, starting with a word and no space.
    expect(continued.trimStart()).toMatch(/^\p{L}/u);
    const stored = await row(conversation.id, 2);
    expect(stored.content).toBe(`${partial} ${continued.trimStart()}`);
    // What streamed (and so what the open page shows) is what is stored.
    expect(stored.content).toBe(partial + continued);
  });

  it("offers no tools and so counts none: the stored request count is that of what was sent", async () => {
    const conversation = await newConversation();
    await stoppedReply(conversation.id);
    await collect(await ops.startTurn(h.user, { conversationId: conversation.id, continueSeq: 2 }));
    const body = chatRequests(h.server).at(-1)!.body as { messages: Parameters<typeof countRequestTokens>[0]; tools?: unknown };
    expect(body.tools).toBeUndefined();
    // The calibration divides the server's prompt count by this one: it must be of the same request.
    expect((await row(conversation.id, 2)).requestTokens).toBe(countRequestTokens(body.messages));
  });

  it("refuses a reply that was not stopped or is not the last one", async () => {
    const conversation = await newConversation();
    await send(conversation.id, "hello");
    expect((await refusal(ops.startTurn(h.user, { conversationId: conversation.id, continueSeq: 2 }))).code).toBe("invalid_input");
    await stoppedReply(conversation.id);
    await send(conversation.id, "and then");
    expect((await refusal(ops.startTurn(h.user, { conversationId: conversation.id, continueSeq: 4 }))).code).toBe("invalid_input");
  });
});

describe("another user's conversation", () => {
  it("answers not found to regenerate, edit, continue and switch, and changes nothing", async () => {
    const conversationId = await threeTurns();
    const stranger = await signUp();
    const message = await row(conversationId, 2);
    for (const input of [
      { conversationId, regenerateSeq: 2 },
      { conversationId, continueSeq: 6 },
      { conversationId, editSeq: 3, content: "mine now" },
    ]) {
      expect((await refusal(ops.startTurn(stranger, input))).code).toBe("not_found");
    }
    expect((await refusal(ops.switchVersion(stranger, { conversationId, messageId: message.id }))).code).toBe("not_found");
    expect((await shown(conversationId)).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("export and import", () => {
  it("carries the versions: export → import → export is identical, and the imported versions switch", async () => {
    const conversationId = await threeTurns();
    const old = await row(conversationId, 4);
    await regenerate(conversationId, 4);
    const exportOf = async (id: string) => {
      const file = await ops.exportConversation(h.user, { conversationId: id, format: "json" });
      const { exportedAt: _time, ...doc } = JSON.parse(file.body) as Record<string, unknown>;
      return doc;
    };
    const first = await exportOf(conversationId);
    const messages = first.messages as { seq: number; versionOf: number | null; branchOf: number | null }[];
    expect(messages.map((m) => [m.seq, m.versionOf, m.branchOf])).toEqual([
      [1, null, null], [2, null, null], [3, null, null], [4, null, 4], [5, null, 4], [6, null, 4], [7, 4, null],
    ]);
    const imported = await ops.importConversation(h.user, JSON.parse((await ops.exportConversation(h.user, { conversationId, format: "json" })).body));
    const original = first.conversation as { title: string };
    expect(await exportOf(imported.id)).toEqual({ ...first, conversation: { ...original, title: `${original.title} (imported)` } });
    const importedOld = await row(imported.id, 4);
    expect(importedOld.id).not.toBe(old.id);
    await ops.switchVersion(h.user, { conversationId: imported.id, messageId: importedOld.id });
    expect((await shown(imported.id)).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("imports a file from before versions (no version fields) and refuses a link to a missing seq", async () => {
    const conversationId = await threeTurns();
    const doc = JSON.parse((await ops.exportConversation(h.user, { conversationId, format: "json" })).body) as {
      messages: Record<string, unknown>[];
    };
    const legacy = { ...doc, messages: doc.messages.map(({ versionOf: _v, branchOf: _b, ...rest }) => rest) };
    expect((await ops.importConversation(h.user, legacy)).messageCount).toBe(6);
    const broken = { ...doc, messages: doc.messages.map((m, index) => (index === 1 ? { ...m, versionOf: 99 } : m)) };
    expect((await refusal(ops.importConversation(h.user, broken))).message).toMatch(/seq 99/);
  });
});
