// The chat loop end to end: server operations → real database → the real HTTP test
// model server through the unmodified openai client.
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { maxMessageChars } from "../../lib/chat/inputs";
import { AppError } from "../../lib/errors";
import { chatRequests, newConversation, send, setupHarness } from "../support/harness";

const h = setupHarness();

async function storedMessages(conversationId: string) {
  return h.db.message.findMany({ where: { conversationId }, orderBy: { seq: "asc" } });
}

describe("a chat turn", () => {
  // The token figures themselves are judged against the outside model in turn-usage.test.ts.
  it("persists the user and assistant messages with sequence numbers and usage", async () => {
    const conversation = await newConversation();
    const events = await send(conversation.id, "Hello there, FACT city=Lisbon");
    const rows = await storedMessages(conversation.id);
    expect(rows.map((row) => [row.seq, row.role, row.status])).toEqual([
      [1, "user", "complete"],
      [2, "assistant", "complete"],
    ]);
    const [user, assistant] = rows;
    expect(user!.tokenCount).toBeGreaterThan(0);
    expect(assistant!.content).toContain("Demo model");
    expect(assistant!.tokenCount).toBeGreaterThan(0);
    const request = chatRequests(h.server).at(-1)!;
    const sent = (request.body as { messages: { role: string }[] }).messages;
    expect(assistant!.promptTokens).toBeGreaterThan(0);
    expect(assistant!.completionTokens).toBeGreaterThan(0);
    expect(assistant!.requestTokens).toBeGreaterThan(0);
    expect(sent.map((m) => m.role)).toEqual(["system", "user"]);
    const deltas = events.filter((e) => e.type === "delta").map((e) => (e.type === "delta" ? e.text : ""));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(assistant!.content);
    expect(events.at(-1)?.type).toBe("done");
  });

  it("sends the whole active history on the next turn", async () => {
    const conversation = await newConversation();
    await send(conversation.id, "first");
    await send(conversation.id, "second");
    const sent = (chatRequests(h.server).at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
    expect(sent.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(sent[3]!.content).toBe("second");
    expect((await storedMessages(conversation.id)).map((r) => r.seq)).toEqual([1, 2, 3, 4]);
  });

  it("persists a tool-call round trip in order", async () => {
    const conversation = await newConversation();
    const events = await send(conversation.id, "what time is it?");
    const rows = await storedMessages(conversation.id);
    expect(rows.map((row) => row.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const [, call, result, answer] = rows;
    const calls = call!.toolCalls as { id: string; name: string }[];
    expect(calls).toHaveLength(1);
    expect(calls[0]!.name).toBe("current_time");
    expect(result!.toolCallId).toBe(calls[0]!.id);
    expect(result!.content).toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(answer!.content).toContain("The tool returned:");
    // The second model call carried the tool call and its result.
    const second = (chatRequests(h.server).at(-1)!.body as { messages: { role: string; tool_call_id?: string }[] }).messages;
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second[3]!.tool_call_id).toBe(calls[0]!.id);
    expect(events.filter((e) => e.type === "message")).toHaveLength(4);
  });

  it("keeps the user's message and reports a clear error when the model fails, and a retry answers it", async () => {
    const conversation = await newConversation();
    h.server.injectFault({ type: "http_500", target: "chat" });
    const events = await send(conversation.id, "Will this work?");
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ type: "error", retryable: true });
    expect(error && error.type === "error" ? error.message : "").toMatch(/500/);
    let rows = await storedMessages(conversation.id);
    expect(rows.map((r) => r.role)).toEqual(["user"]);
    // Why it waits for Retry is stored with the message, so a reload still says it.
    expect(rows[0]!.error).toMatch(/500/);
    const page = await ops.timeline(h.user, { conversationId: conversation.id });
    const shown = page.items.flatMap((item) => (item.type === "message" ? [item.message] : []));
    expect(shown.at(-1)).toMatchObject({ role: "user", error: expect.stringMatching(/500/) });

    const retried = [];
    for await (const event of await ops.startTurn(h.user, { conversationId: conversation.id, retry: true })) retried.push(event);
    expect(retried.some((e) => e.type === "error")).toBe(false);
    rows = await storedMessages(conversation.id);
    expect(rows.map((r) => r.role)).toEqual(["user", "assistant"]);
    expect(rows[0]!.error).toBeNull();
  });

  it("keeps the partial reply, marked stopped, when the user stops mid-stream", async () => {
    const conversation = await newConversation();
    h.server.setLatency({ chatLatencyMs: 30 });
    const controller = new AbortController();
    const seen: string[] = [];
    const events = await ops.startTurn(h.user, { conversationId: conversation.id, content: "REPLY_WORDS=400" }, controller.signal);
    for await (const event of events) {
      if (event.type === "delta") {
        seen.push(event.text);
        if (seen.length === 5) void ops.stop(h.user, conversation.id);
      }
    }
    const rows = await storedMessages(conversation.id);
    expect(rows.map((r) => [r.role, r.status])).toEqual([
      ["user", "complete"],
      ["assistant", "stopped"],
    ]);
    expect(rows[1]!.content).toBe(seen.join(""));
    expect(rows[1]!.content.split(" ").length).toBeLessThan(400);
    // A stopped reply stays in the model's view.
    await send(conversation.id, "continue");
    const sent = (chatRequests(h.server).at(-1)!.body as { messages: { role: string }[] }).messages;
    expect(sent.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
  });
});

describe("naming a conversation", () => {
  const untitled = () => ops.createConversation(h.user, { model: "gpt-4o-mini" });
  const titleOf = async (id: string) => (await h.db.conversation.findUniqueOrThrow({ where: { id } })).title;

  it("names a new conversation after its first message, on the server, and says so in the turn", async () => {
    const conversation = await untitled();
    expect(conversation.title).toBe("New conversation");
    const first = "  Plan the   harbour\nwalk for Saturday morning, with two stops for coffee and a bakery 🥐🥐";
    const events = await send(conversation.id, first);
    const title = "Plan the harbour walk for Saturday morning, with two stops f";
    expect(await titleOf(conversation.id)).toBe(title);
    // Right after the stored message, before the reply.
    expect(events.slice(0, 2)).toEqual([expect.objectContaining({ type: "message" }), { type: "title", title }]);

    const second = await send(conversation.id, "and a second message");
    expect(second.some((event) => event.type === "title")).toBe(false);
    expect(await titleOf(conversation.id)).toBe(title);
  });

  it("keeps a title the user gave", async () => {
    const named = await newConversation();
    const events = await send(named.id, "hello");
    expect(events.some((event) => event.type === "title")).toBe(false);
    expect(await titleOf(named.id)).toBe("Test");
  });
});

describe("bad input is refused clearly and stores nothing", () => {
  async function expectRefused(input: unknown, pattern: RegExp) {
    const error = await ops.startTurn(h.user, input).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(pattern);
    return error as AppError;
  }

  it("refuses an empty or whitespace-only message", async () => {
    const conversation = await newConversation();
    await expectRefused({ conversationId: conversation.id, content: "" }, /empty/);
    await expectRefused({ conversationId: conversation.id, content: "  \n\t " }, /empty/);
    expect(await storedMessages(conversation.id)).toHaveLength(0);
  });

  it("refuses a message over the configured maximum size", async () => {
    const conversation = await newConversation();
    const error = await expectRefused(
      { conversationId: conversation.id, content: "x".repeat(maxMessageChars() + 1) },
      /longer than the maximum/,
    );
    expect(error.status).toBe(400);
    expect(await storedMessages(conversation.id)).toHaveLength(0);
  });

  it("refuses an unknown or malformed conversation id", async () => {
    const before = await h.db.message.count();
    const unknown = await expectRefused(
      { conversationId: "0190a000-0000-7000-8000-000000000000", content: "hi" },
      /No conversation/,
    );
    expect(unknown.status).toBe(404);
    await expectRefused({ conversationId: "not-an-id", content: "hi" }, /valid id/);
    expect(await h.db.message.count()).toBe(before);
  });
});

describe("progress", () => {
  it("announces a compaction before it runs, then reports it", async () => {
    const { saveTestSettings } = await import("../support/harness");
    await saveTestSettings(h.db, { contextWindowOverrides: { "gpt-4o-mini": 1500 }, hardLimitReserve: 100, keepRecentCount: 2, preemptiveThreshold: 0 });
    const conversation = await newConversation();
    let events: Awaited<ReturnType<typeof send>> = [];
    for (let turn = 1; turn <= 20 && !events.some((e) => e.type === "compaction"); turn++) {
      events = await send(conversation.id, `Turn ${turn} REPLY_WORDS=60`);
    }
    const status = events.findIndex((e) => e.type === "status");
    const compaction = events.findIndex((e) => e.type === "compaction");
    expect(compaction).toBeGreaterThan(0);
    expect(status).toBeGreaterThan(0);
    expect(status).toBeLessThan(compaction);
    const announced = events[status] as Extract<(typeof events)[number], { type: "status"; stage: "compressing" }>;
    const applied = events[compaction] as Extract<(typeof events)[number], { type: "compaction" }>;
    expect(announced.messageCount).toBe(applied.compaction.coveredMessageCount);
  });
});
