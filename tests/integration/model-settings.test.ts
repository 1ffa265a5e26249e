// Model and instructions: what the model server receives (judged from the outside
// model's own log, not from our code), the user's defaults for new conversations, a
// model change re-measured for the new window, and the refusals.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { backgroundSettled } from "../../lib/chat/compressor";
import { refusal, saveTestSettings, send, setupHarness } from "../support/harness";
import { signUp } from "../support/accounts";
import { startOutsideModel, type OutsideModel, type RecordedRequest } from "../support/outside-model/server";

const h = setupHarness();
let outside: OutsideModel;
const SMALL = "outside-small";
const LARGE = "outside-large";

beforeAll(async () => {
  outside = await startOutsideModel({ summaryMode: "terse", seed: 3 });
  process.env.OPENAI_BASE_URL = outside.url;
});
beforeEach(() => {
  outside.reset();
  outside.configure({ summaryMode: "terse", usage: "always", contextWindow: undefined, failRate: 0 });
});
afterEach(async () => {
  await ops.saveChatDefaults(h.user, { instructions: "", temperature: null });
  await ops.saveAdminModelList({ ...h.user, role: "admin" }, { models: [] });
});
afterAll(async () => {
  await outside.close();
});

type ChatBody = { model: string; temperature?: number; messages: { role: string; content?: string | null }[] };
const chats = (): RecordedRequest[] => outside.requests().filter((request) => request.kind === "chat");
const lastChat = (): ChatBody => chats().at(-1)!.body as ChatBody;

async function conversationOn(model: string) {
  return ops.createConversation(h.user, { title: "model settings", model, systemPrompt: "" });
}

describe("what the model server receives", () => {
  it("the conversation's model, its instructions as the system prompt and its temperature; no temperature once it is removed", async () => {
    const conversation = await conversationOn(SMALL);
    await ops.updateModelSettings(h.user, { conversationId: conversation.id, model: LARGE, instructions: "Answer like a lighthouse keeper.", temperature: 0.3 });
    expect((await send(conversation.id, "How is the weather?")).find((e) => e.type === "error")).toBeUndefined();
    const first = lastChat();
    expect(first.model).toBe(LARGE);
    expect(first.messages[0]).toMatchObject({ role: "system", content: "Answer like a lighthouse keeper." });
    expect(first.temperature).toBe(0.3);

    await ops.updateModelSettings(h.user, { conversationId: conversation.id, temperature: null, instructions: "" });
    await send(conversation.id, "And tomorrow?");
    const second = lastChat();
    expect(second.model).toBe(LARGE);
    expect("temperature" in second).toBe(false);
    expect(second.messages.some((message) => message.role === "system" && message.content?.includes("lighthouse"))).toBe(false);
  });

  it("a new conversation starts from the user's default instructions and temperature; changing the default later leaves it alone", async () => {
    await ops.saveChatDefaults(h.user, { instructions: "Be brief and cite sources.", temperature: 1.2 });
    const conversation = await ops.createConversation(h.user, { model: SMALL });
    expect((await ops.modelSettings(h.user, conversation.id)).settings).toEqual({ model: SMALL, instructions: "Be brief and cite sources.", temperature: 1.2 });
    await ops.saveChatDefaults(h.user, { instructions: "Something else.", temperature: null });
    await send(conversation.id, "Hello there");
    const body = lastChat();
    expect(body.messages[0]).toMatchObject({ role: "system", content: "Be brief and cite sources." });
    expect(body.temperature).toBe(1.2);
  });

  it("the instructions are counted in the context meter", async () => {
    const conversation = await conversationOn(SMALL);
    const before = await ops.meter(h.user, conversation.id);
    const { meter } = await ops.updateModelSettings(h.user, { conversationId: conversation.id, instructions: "Keep every answer under fifty words. ".repeat(40) });
    expect(meter.systemTokens).toBeGreaterThan(before.systemTokens + 200);
    expect(meter.totalTokens).toBeGreaterThan(before.totalTokens + 200);
  });
});

describe("changing the model mid-conversation", () => {
  it("re-measures the context for the new window at once, and the next turn compresses to it before the call", async () => {
    const SMALL_WINDOW = 4096;
    await saveTestSettings(h.db, { contextWindowOverrides: { [LARGE]: 65_536, [SMALL]: SMALL_WINDOW } });
    const conversation = await conversationOn(LARGE);
    // About 5,000 tokens by the server's count: more than the small window holds.
    for (let turn = 0; turn < 12; turn++) {
      const events = await send(conversation.id, `Turn ${turn}: tell me about harbour number ${turn * 7}. <<reply 380>>`);
      expect(events.find((e) => e.type === "error"), `turn ${turn}`).toBeUndefined();
    }
    await backgroundSettled(conversation.id);
    expect(chats().at(-1)!.promptTokens).toBeGreaterThan(SMALL_WINDOW);
    const onLarge = await ops.meter(h.user, conversation.id);
    expect(onLarge.contextWindow).toBe(65_536);
    const attemptsBefore = await h.db.compactionAttempt.count({ where: { conversationId: conversation.id, outcome: "applied" } });

    const { meter } = await ops.updateModelSettings(h.user, { conversationId: conversation.id, model: SMALL });
    expect(meter.contextWindow).toBe(SMALL_WINDOW);
    expect(meter.ratio).toBeGreaterThan(onLarge.ratio * 10);
    expect(await ops.meter(h.user, conversation.id)).toMatchObject({ contextWindow: SMALL_WINDOW });

    // From now on the server refuses (400) any request over the small window.
    outside.configure({ contextWindow: SMALL_WINDOW });
    const sentAt = outside.requests().length;
    const events = await send(conversation.id, "Which harbour came first?");
    expect(events.find((e) => e.type === "error")).toBeUndefined();
    const after = outside.requests().slice(sentAt);
    expect(outside.stats().overWindow).toBe(0);
    for (const request of after) expect(request.promptTokens).toBeLessThanOrEqual(SMALL_WINDOW);
    expect(after.filter((request) => request.kind === "chat").map((request) => (request.body as ChatBody).model)).toEqual([SMALL]);
    expect(await h.db.compactionAttempt.count({ where: { conversationId: conversation.id, outcome: "applied" } })).toBeGreaterThan(attemptsBefore);
  }, 60_000);
});

describe("the models offered", () => {
  it("the server's list, the admin's list and the conversation's own model, each once", async () => {
    await ops.saveAdminModelList({ ...h.user, role: "admin" }, { models: ["house-model", " outside-large ", "", "house-model"] });
    const conversation = await conversationOn("typed-by-hand");
    const offered = await ops.modelSettings(h.user, conversation.id);
    expect(offered.serverListed).toBe(true);
    expect(offered.models).toEqual(["typed-by-hand", SMALL, LARGE, "house-model"]);
  });

  it("a server that does not answer GET /models leaves the admin's list, said so", async () => {
    await ops.saveAdminModelList({ ...h.user, role: "admin" }, { models: ["house-model"] });
    const conversation = await conversationOn(SMALL);
    const configured = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    try {
      const offered = await ops.modelSettings(h.user, conversation.id);
      expect(offered).toMatchObject({ serverListed: false, models: [SMALL, "house-model"] });
    } finally {
      process.env.OPENAI_BASE_URL = configured;
    }
  });
});

describe("refusals", () => {
  it("a bad model name, instructions or temperature is refused with a clear message, and nothing changes", async () => {
    const conversation = await conversationOn(SMALL);
    await ops.updateModelSettings(h.user, { conversationId: conversation.id, instructions: "Stay calm.", temperature: 0.7 });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ model: "" }, /model name is empty/],
      [{ model: "   " }, /model name is empty/],
      [{ model: "m".repeat(201) }, /at most 200 characters/],
      [{ model: 42 }, /must be text/],
      [{ instructions: "x".repeat(50_001) }, /Instructions are at most 50,000 characters/],
      [{ temperature: 2.5 }, /number from 0 to 2/],
      [{ temperature: -0.1 }, /number from 0 to 2/],
      [{ temperature: "hot" }, /number from 0 to 2/],
      // Even with a valid model beside it: the whole patch is refused.
      [{ model: LARGE, temperature: 9 }, /number from 0 to 2/],
    ];
    for (const [patch, message] of cases) {
      const error = await refusal(ops.updateModelSettings(h.user, { conversationId: conversation.id, ...patch }));
      expect(error.code, JSON.stringify(patch)).toBe("invalid_input");
      expect(error.message, JSON.stringify(patch)).toMatch(message);
    }
    expect((await ops.modelSettings(h.user, conversation.id)).settings).toEqual({ model: SMALL, instructions: "Stay calm.", temperature: 0.7 });
    // A model name is trimmed.
    expect((await ops.updateModelSettings(h.user, { conversationId: conversation.id, model: `  ${LARGE}  ` })).settings.model).toBe(LARGE);
  });

  it("the defaults are validated the same way", async () => {
    expect((await refusal(ops.saveChatDefaults(h.user, { instructions: "y".repeat(50_001), temperature: null }))).message).toMatch(/at most 50,000/);
    expect((await refusal(ops.saveChatDefaults(h.user, { instructions: "", temperature: 3 }))).message).toMatch(/number from 0 to 2/);
    expect(await ops.chatDefaults(h.user)).toEqual({ instructions: "", temperature: null });
  });

  it("another user's conversation answers not found, and only the admin edits the model list", async () => {
    const conversation = await conversationOn(SMALL);
    const stranger = await signUp();
    // One at a time: a refusal started before the previous one is awaited would reject unobserved.
    for (const attempt of [() => ops.modelSettings(stranger, conversation.id), () => ops.updateModelSettings(stranger, { conversationId: conversation.id, model: LARGE })]) {
      expect((await refusal(attempt())).code).toBe("not_found");
    }
    expect((await ops.modelSettings(h.user, conversation.id)).settings.model).toBe(SMALL);
    expect((await refusal(ops.saveAdminModelList(stranger, { models: ["x"] }))).code).toBe("forbidden");
    const admin = { ...h.user, role: "admin" as const };
    expect((await refusal(ops.saveAdminModelList(admin, { models: Array.from({ length: 101 }, (_, i) => `m${i}`) }))).message).toMatch(/At most 100/);
    expect((await refusal(ops.saveAdminModelList(admin, { models: ["z".repeat(201)] }))).message).toMatch(/at most 200/);
  });
});
