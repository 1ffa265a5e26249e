// What a turn stores about tokens, judged from outside the app: the usage is the server's
// own report (the outside model counts with its own rule, as real servers do), and our
// counts follow OpenAI's published recipe (3 tokens a message + its role + its content),
// recomputed here with tiktoken itself rather than with lib/llm's counter.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { get_encoding } from "tiktoken";
import { newConversation, send, setupHarness } from "../support/harness";
import { startOutsideModel, type OutsideModel } from "../support/outside-model/server";

const h = setupHarness();
let outside: OutsideModel;
const o200k = get_encoding("o200k_base");
const tokens = (text: string) => o200k.encode_ordinary(text).length;
const recipe = (role: string, content: string) => 3 + tokens(role) + tokens(content);

beforeAll(async () => {
  outside = await startOutsideModel({ seed: 3 });
  process.env.OPENAI_BASE_URL = outside.url;
});
beforeEach(() => {
  outside.reset();
  outside.configure({ usage: "always" });
});
afterAll(async () => {
  await outside.close();
  o200k.free();
});

describe("a turn's token figures", () => {
  it("stores the server's usage as it reported it, and our own counts of the messages and the request beside it", async () => {
    const conversation = await newConversation("gpt-4o-mini", "You are a helpful assistant.");
    const content = "Hello there, FACT city=Lisbon <<reply 20>>";
    const events = await send(conversation.id, content);
    expect(events.at(-1)?.type).toBe("done");
    const rows = await h.db.message.findMany({ where: { conversationId: conversation.id }, orderBy: { seq: "asc" } });
    expect(rows.map((row) => row.role)).toEqual(["user", "assistant"]);
    const [user, assistant] = rows;

    // Usage is the API's own report, whatever it counts with.
    const chat = outside.requests().filter((request) => request.kind === "chat").at(-1)!;
    expect(assistant!.promptTokens).toBe(chat.promptTokens);
    expect(assistant!.completionTokens).toBe(chat.reply!.completionTokens);

    // Our counts: the recipe, message by message.
    expect(user!.tokenCount).toBe(recipe("user", content));
    expect(assistant!.tokenCount).toBe(recipe("assistant", assistant!.content));

    // Our count of the request the server counted: its messages, the reply priming, and the offered tools.
    const sent = chat.body as { messages: { role: string; content: string }[]; tools?: unknown[] };
    expect(sent.messages.map((m) => m.role)).toEqual(["system", "user"]);
    const messagesOnly = sent.messages.reduce((sum, m) => sum + recipe(m.role, m.content), 3);
    expect(sent.tools?.length).toBeGreaterThan(0);
    expect(assistant!.requestTokens).toBeGreaterThan(messagesOnly);
    expect(assistant!.requestTokens).toBeLessThan(messagesOnly + JSON.stringify(sent.tools).length / 2);
  });
});
