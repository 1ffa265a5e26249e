// Servers that refuse request fields they do not know (NVIDIA NIM, Azure AI Foundry,
// pydantic-validated servers) and reasoning models behind a name that does not say so:
// a turn and a summary call still succeed, the refused fields are left out of (or renamed
// in) every later request to that server and model, and a refusal of anything else is not
// retried. The refusals are the outside model's own, in each server's shape.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newConversation, saveTestSettings, send, setupHarness } from "../support/harness";
import { backgroundSettled } from "../../lib/chat/compressor";
import { mulberry32 } from "../support/outside-model/behaviour";
import { chatter } from "../support/simulation";
import { recallFact } from "../support/recall-run";
import { STRICT_STYLES, startOutsideModel, type OutsideModel, type RecordedRequest } from "../support/outside-model/server";
import { createModelEndpoint, ModelError } from "../../lib/llm/client";
import { createSummarizer } from "../../lib/llm/summarizer";
import { toModelError } from "../../lib/llm/errors";

const h = setupHarness();
const started: OutsideModel[] = [];
let originalBaseUrl: string | undefined;

beforeAll(() => {
  originalBaseUrl = process.env.OPENAI_BASE_URL;
});
afterAll(async () => {
  process.env.OPENAI_BASE_URL = originalBaseUrl;
  await Promise.all(started.map((server) => server.close()));
});

/** A server of its own per test: what a server refused is remembered per endpoint. */
async function strictServer(style: (typeof STRICT_STYLES)[number], extra: Parameters<typeof startOutsideModel>[0] = {}): Promise<OutsideModel> {
  const server = await startOutsideModel({ strict: style, ...extra });
  started.push(server);
  return server;
}

const fieldsOf = (request: RecordedRequest) => Object.keys(request.body as object);
const summaryRequest = (text: string) => ({
  model: "gpt-4o-mini",
  messages: [
    { role: "system" as const, content: "Summarize the conversation." },
    { role: "user" as const, content: text },
  ],
  maxTokens: 200,
  temperature: 0.2,
  timeoutMs: 10_000,
  cacheScope: "conversation-1",
});

describe.each(STRICT_STYLES)("a server that refuses unknown fields (%s)", (style) => {
  it("answers the turn; the refused fields stay out of the next turn's request", async () => {
    const server = await strictServer(style);
    process.env.OPENAI_BASE_URL = server.url;
    const conversation = await newConversation();

    const first = await send(conversation.id, "Where is the Louvre?");
    expect(first.at(-1)?.type).toBe("done");
    const refusal = style === "fastapi" ? 422 : 400;
    // `openai` names one refused field at a time, the others all of them at once.
    const statuses = style === "openai" ? [refusal, refusal, 200] : [refusal, 200];
    expect(server.requests().map((request) => request.status)).toEqual(statuses);
    expect(fieldsOf(server.requests()[0]!)).toEqual(expect.arrayContaining(["prompt_cache_key", "stream_options"]));
    const accepted = server.requests().at(-1)!;
    expect(fieldsOf(accepted)).not.toContain("prompt_cache_key");
    expect(fieldsOf(accepted)).not.toContain("stream_options");

    const second = await send(conversation.id, "And the Prado?");
    expect(second.at(-1)?.type).toBe("done");
    expect(server.requests().slice(statuses.length).map((request) => request.status)).toEqual([200]);
  });

  it("leaves out only what it refused: a server that knows stream_options still reports usage", async () => {
    const server = await strictServer(style, { strictAlsoKnows: ["stream_options"] });
    process.env.OPENAI_BASE_URL = server.url;
    const conversation = await newConversation();
    const events = await send(conversation.id, "Where is the Louvre?");
    expect(events.at(-1)?.type).toBe("done");
    const accepted = server.requests().at(-1)!;
    expect(accepted.status).toBe(200);
    expect(fieldsOf(accepted)).toContain("stream_options");
    expect(fieldsOf(accepted)).not.toContain("prompt_cache_key");
    const stored = await h.db.message.findFirst({ where: { conversationId: conversation.id, role: "assistant" } });
    expect(stored?.promptTokens).toBe(accepted.promptTokens);
  });

  it("answers a summary call the same way", async () => {
    const server = await strictServer(style);
    const summarizer = createSummarizer({ endpoint: createModelEndpoint({ baseURL: server.url }) });
    const reply = await summarizer.complete(summaryRequest("The meeting moved to Tuesday at 10:00 in room 4."));
    expect(reply.text.length).toBeGreaterThan(0);
    const again = await summarizer.complete(summaryRequest("The budget is 4,200 euros."));
    expect(again.text.length).toBeGreaterThan(0);
    const refusal = style === "fastapi" ? 422 : 400;
    // A summary call does not stream: it carries prompt_cache_key only.
    expect(server.requests().map((request) => request.status)).toEqual([refusal, 200, 200]);
  });
});

describe("refusals that are not about an optional field", () => {
  it("are not retried, and say what the server said", async () => {
    const server = await startOutsideModel({ contextWindow: 5 });
    started.push(server);
    const summarizer = createSummarizer({ endpoint: createModelEndpoint({ baseURL: server.url }) });
    const error = await summarizer.complete(summaryRequest("A request longer than five tokens, by any count.")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/HTTP 400: .*context/i);
    expect(server.requests()).toHaveLength(1);
  });

  it("when the request without the optional fields is refused too, that refusal is the error", async () => {
    const server = await strictServer("nim", { contextWindow: 5 });
    const summarizer = createSummarizer({ endpoint: createModelEndpoint({ baseURL: server.url }) });
    const error = await summarizer.complete(summaryRequest("A request longer than five tokens, by any count.")).catch((e: unknown) => e);
    expect((error as ModelError).message).toMatch(/HTTP 400: .*context/i);
    expect(server.requests().map((request) => fieldsOf(request).includes("prompt_cache_key"))).toEqual([true, false]);
  });
});

describe("what a refusal shows", () => {
  // Sent past the fallback, straight through the openai client, as a server with no fallback would see it.
  it.each([
    ["openai", "HTTP 400: Unrecognized request argument supplied: prompt_cache_key"],
    ["nim", "HTTP 400: Validation: Unsupported parameter(s): `prompt_cache_key`"],
    ["fastapi", "HTTP 422: prompt_cache_key: Extra inputs are not permitted"],
  ] as const)("%s: the server's own reason", async (style, shown) => {
    const server = await strictServer(style);
    const { client } = createModelEndpoint({ baseURL: server.url });
    const thrown = await client.chat.completions
      .create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }], prompt_cache_key: "k" })
      .catch((error: unknown) => error);
    expect(toModelError(thrown, { timedOut: false, timeoutMs: 1000 }).message).toBe(`The model server returned ${shown}`);
  });
});

describe("a reasoning model whose name does not say so (an Azure deployment, a proxy's alias)", () => {
  it("summarizes: max_tokens becomes max_completion_tokens and the temperature goes, for that model only", async () => {
    const server = await startOutsideModel({ reasoningModels: ["team-reasoner"] });
    started.push(server);
    const summarizer = createSummarizer({ endpoint: createModelEndpoint({ baseURL: server.url }) });
    const reasoner = { ...summaryRequest("The launch moved to March 3; the budget is 4,200 euros."), model: "team-reasoner" };

    expect((await summarizer.complete(reasoner)).text.length).toBeGreaterThan(0);
    // OpenAI's reasoning models name one refused field at a time.
    expect(server.requests().map((request) => request.status)).toEqual([400, 400, 200]);
    const accepted = server.requests().at(-1)!.body as Record<string, unknown>;
    expect(accepted.max_completion_tokens).toBe(200);
    expect(accepted).not.toHaveProperty("max_tokens");
    expect(accepted).not.toHaveProperty("temperature");

    expect((await summarizer.complete(reasoner)).text.length).toBeGreaterThan(0);
    expect(server.requests().slice(3).map((request) => request.status)).toEqual([200]);

    // Another model on the same server keeps its temperature and max_tokens.
    await summarizer.complete(summaryRequest("The venue is the Old Mill."));
    const other = server.requests().at(-1)!;
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ model: "gpt-4o-mini", max_tokens: 200, temperature: 0.2 });
  });
});

/** 30 turns (at a 4k window) with two facts planted early, compressed on the way (the summaries drop the facts). */
async function compressedConversation(server: OutsideModel, model: string, window = 4096, turns = 30) {
  process.env.OPENAI_BASE_URL = server.url;
  await saveTestSettings(h.db, { contextWindowOverrides: { [model]: window }, carryDetails: false });
  const conversation = await newConversation(model);
  const rng = mulberry32(3);
  for (let turn = 0; turn < turns; turn++) {
    const fact = turn < 2 ? `\n${recallFact(turn).sentence}` : "";
    const events = await send(conversation.id, `${chatter(rng, 50)} <<reply 120>>${fact}`);
    expect(events.find((event) => event.type === "error")).toBeUndefined();
    await backgroundSettled(conversation.id);
  }
  const compactions = await h.db.compaction.count({ where: { conversationId: conversation.id, supersededById: null, kind: "summary" } });
  expect(compactions).toBeGreaterThan(0);
  expect(server.requests().some((request) => request.kind === "summary" && request.status === 200)).toBe(true);
  return conversation;
}

/** The summaries dropped the fact; automatic recall quotes it, so the model still answers. */
async function answersFromRecall(conversationId: string) {
  const events = await send(conversationId, `<<recall ${recallFact(1).key}>>`);
  const reply = events.flatMap((event) => (event.type === "message" ? [event.message.content] : [])).at(-1);
  expect(reply).toContain(recallFact(1).value);
}

const outsideOptions = { contextWindow: 4096, summaryMode: "drop_facts", chatMode: "directed", seed: 7 } as const;

describe("a model without tool calling (Ollama: \"M does not support tools\")", () => {
  it("chats, compresses and recalls without tools: one refused request, then none offered", async () => {
    const model = "gemma3:4b";
    const server = await startOutsideModel({ ...outsideOptions, toollessModels: [model] });
    started.push(server);
    const conversation = await compressedConversation(server, model);
    const requests = server.requests();
    expect(requests.filter((request) => request.status !== 200)).toHaveLength(1);
    expect(requests.filter((request) => request.status === 200 && "tools" in (request.body as object))).toEqual([]);
    await answersFromRecall(conversation.id);
  }, 120_000);

  it("at 8k, where the history tools would be offered, it is never told to call them: automatic recall stands in", async () => {
    const model = "llama3.2:3b";
    const server = await startOutsideModel({ ...outsideOptions, contextWindow: 8192, toollessModels: [model] });
    started.push(server);
    const conversation = await compressedConversation(server, model, 8192, 50);
    const requests = server.requests();
    expect(requests.filter((request) => request.status !== 200)).toHaveLength(1);
    expect(requests.filter((request) => request.status === 200 && "tools" in (request.body as object))).toEqual([]);
    const told = requests.filter((request) => JSON.stringify((request.body as { messages: unknown }).messages).includes("search_history"));
    expect(told).toEqual([]);
    await answersFromRecall(conversation.id);
  }, 120_000);
});

describe("a chat template that takes one system message, then user and assistant alternating (vLLM serving Gemma or Mistral)", () => {
  it("chats, compresses and recalls: one refused request, then every request alternates", async () => {
    const model = "google/gemma-3-27b-it";
    const server = await startOutsideModel({ ...outsideOptions, alternatingModels: [model] });
    started.push(server);
    const conversation = await compressedConversation(server, model);
    const requests = server.requests();
    expect(requests.filter((request) => request.status !== 200)).toHaveLength(1);
    await answersFromRecall(conversation.id);
    const last = server.requests().at(-1)!;
    const roles = (last.body as { messages: { role: string }[] }).messages.map((message) => message.role);
    expect(roles[0]).toBe("system");
    expect(roles.filter((role) => role === "system")).toHaveLength(1);
  }, 120_000);
});
