// The demo server over real HTTP, driven by the unmodified openai client and by
// lib/llm's own client code, through the tests' model proxy (tests/support/test-model),
// which records the requests and answers its own triggers (REPLY_WORDS=, RECALL); its
// faults, latency and admin API are tested here too. No mocks. Summary requests are
// built with the engine's own prompt builders: the demo must recognise what the app sends.

import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ChatMessage, ToolCall } from "@/lib/compression/types";
import {
  createModelEndpoint,
  defaultModel,
  getModelEndpoint,
  isDemoMode,
  listModels,
  ModelError,
  startingModel,
  streamChat,
  type ChatStreamEvent,
  type ModelEndpoint,
  type StreamChatOptions,
} from "@/lib/llm/client";
import { createSummarizer } from "@/lib/llm/summarizer";
import { startDemoServer } from "@/lib/llm/demo-server";
import { IDLE_KEEP_ALIVE_MS } from "@/lib/llm/demo-server/http";
import { startTestServer, type TestServer } from "../support/test-model";
import { startOutsideModel } from "../support/outside-model/server";
import { modelError } from "../support/model-error";
import { countRequestTokens } from "@/lib/llm/tokens";
import { buildPromptMessages, DEFAULT_SUMMARY_INSTRUCTIONS, DIGEST_INSTRUCTIONS, STRUCTURED_INSTRUCTIONS } from "@/lib/compression/prompts";
import { builtinTools, runTool } from "@/lib/llm/tools";

let server: TestServer;
let endpoint: ModelEndpoint;
let openai: OpenAI;

beforeAll(async () => {
  server = await startTestServer();
  endpoint = createModelEndpoint({ baseURL: server.url, apiKey: "test-key", maxRetries: 0 });
  openai = new OpenAI({ baseURL: server.url, apiKey: "test-key", maxRetries: 0 });
});
afterEach(() => server.reset());
afterAll(() => server.close());

const user = (content: string): ChatMessage => ({ role: "user", content });
const system = (content: string): ChatMessage => ({ role: "system", content });

async function collect(options: Omit<StreamChatOptions, "endpoint">): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of streamChat({ ...options, endpoint })) events.push(event);
  return events;
}

function textOf(events: ChatStreamEvent[]): string {
  return events.map((e) => (e.type === "text" ? e.delta : "")).join("");
}

const summarizer = () => createSummarizer({ endpoint });
const INSTRUCTIONS = { summary: DEFAULT_SUMMARY_INSTRUCTIONS, structured: STRUCTURED_INSTRUCTIONS, digest: DIGEST_INSTRUCTIONS } as const;
/** A stand-alone summary request as the engine builds it: its instructions, then `body` as the material. */
const asks = (kind: keyof typeof INSTRUCTIONS, body: string): ChatMessage[] => buildPromptMessages({ kind, instructions: INSTRUCTIONS[kind], body });
/** Characters over tokens: a tokenizer of English gives about 3–6, whatever its vocabulary. */
const charsPerToken = (messages: ChatMessage[], tokens: number) => messages.reduce((n, m) => n + (m.content ?? "").length, 0) / tokens;
const summaryRequest = (messages: ChatMessage[], extra: { json?: boolean; timeoutMs?: number } = {}) => ({
  model: "strata-demo",
  messages,
  maxTokens: 500,
  temperature: 0.3,
  timeoutMs: extra.timeoutMs ?? 5000,
  ...(extra.json ? { json: true } : {}),
});

describe("chat completions over HTTP", () => {
  it("streams chunks and reports its own usage estimate in a last chunk with empty choices", async () => {
    const messages: ChatMessage[] = [system("You are Strata's demo."), user("Tell me about streaming, please.")];
    const stream = await openai.chat.completions.create({
      model: "gpt-4o-mini",
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(content.startsWith("**Demo model** — you said: “Tell me about streaming, please.”")).toBe(true);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    // The demo counts like a server with a tokenizer of its own: plausible for English text.
    expect(charsPerToken(messages, last.usage!.prompt_tokens)).toBeGreaterThan(2);
    expect(charsPerToken(messages, last.usage!.prompt_tokens)).toBeLessThan(6);
    expect(content.length / last.usage!.completion_tokens).toBeGreaterThan(3);
    expect(content.length / last.usage!.completion_tokens).toBeLessThan(5);
    expect(last.usage?.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);
  });

  it("counts with its own estimate, not the app's tokenizer (the app calibrates against what servers report)", async () => {
    // Single letters are a token each to tiktoken, and far fewer to a characters-per-token estimate.
    const messages = [user("x ".repeat(400))];
    const completion = await openai.chat.completions.create({ model: "gpt-4o-mini", messages });
    const ours = countRequestTokens(messages, "gpt-4o-mini");
    expect(Math.abs(completion.usage!.prompt_tokens - ours)).toBeGreaterThan(ours * 0.2);
  });

  it("omits the usage chunk without include_usage", async () => {
    const stream = await openai.chat.completions.create({ model: "strata-demo", messages: [user("hi")], stream: true });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((c) => c.usage)).toBe(false);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
  });

  it("answers non-streaming requests with the same content as the stream", async () => {
    const messages = [user("Same answer both ways?")];
    const completion = await openai.chat.completions.create({ model: "strata-demo", messages });
    expect(completion.object).toBe("chat.completion");
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    const content = completion.choices[0]?.message.content ?? "";
    expect(content).toMatch(/^\*\*Demo model\*\*/);
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);

    const events = await collect({ model: "strata-demo", messages });
    expect(textOf(events)).toBe(content);
  });

  it("counts offered tools in prompt_tokens", async () => {
    const messages = [user("hello")];
    const tools = builtinTools.map((tool) => tool.definition);
    const events = await collect({ model: "strata-demo", messages, tools });
    const usage = events.find((e) => e.type === "usage");
    const without = (await collect({ model: "strata-demo", messages })).find((e) => e.type === "usage");
    if (usage?.type !== "usage" || without?.type !== "usage") throw new Error("no usage");
    expect(usage).toMatchObject({ completionTokens: expect.any(Number), cachedTokens: 0 });
    // The offered tools' definitions are part of the prompt: about their JSON's length in tokens more.
    const toolChars = JSON.stringify(tools).length;
    expect(usage.promptTokens - without.promptTokens).toBeGreaterThan(toolChars / 6);
    expect(usage.promptTokens - without.promptTokens).toBeLessThan(toolChars / 2);
  });

  it("emits text events, then usage, then done", async () => {
    const events = await collect({ model: "strata-demo", messages: [user("REPLY_WORDS=30")] });
    const types = events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(["usage", "done"]);
    expect(types.slice(0, -2).every((t) => t === "text")).toBe(true);
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
  });

  it("rejects a request without messages with HTTP 400", async () => {
    const error = await modelError(collect({ model: "strata-demo", messages: [] }));
    expect(error.kind).toBe("http");
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/HTTP 400: 'messages'/);
  });
});

describe("tool calls", () => {
  it("streams tool_calls deltas like OpenAI", async () => {
    const stream = await openai.chat.completions.create({
      model: "strata-demo",
      messages: [user("What time is it?")],
      tools: builtinTools.map((tool) => tool.definition),
      stream: true,
    });
    const deltas = [];
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) deltas.push(call);
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(deltas[0]).toMatchObject({ index: 0, type: "function", function: { name: "current_time", arguments: "" } });
    expect(deltas[0]?.id).toMatch(/^call_/);
    expect(deltas.slice(1).every((d) => d.index === 0 && d.id === undefined)).toBe(true);
    expect(deltas.map((d) => d.function?.arguments ?? "").join("")).toBe("{}");
    expect(finish).toBe("tool_calls");
  });

  it("round-trips current_time through streamChat", async () => {
    const tools = builtinTools.map((tool) => tool.definition);
    const messages: ChatMessage[] = [user("Hey, what time is it?")];
    const first = await collect({ model: "strata-demo", messages, tools });
    const callsEvent = first.find((e) => e.type === "tool_calls");
    expect(callsEvent?.type).toBe("tool_calls");
    const calls = (callsEvent as { calls: ToolCall[] }).calls;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: "current_time", arguments: "{}" });
    expect(first.at(-1)).toEqual({ type: "done", finishReason: "tool_calls" });
    expect(textOf(first)).toBe("");

    const call = calls[0]!;
    const result = await runTool(call);
    expect(result.ok).toBe(true);
    const followUp: ChatMessage[] = [
      ...messages,
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }],
      },
      { role: "tool", content: result.content, tool_call_id: call.id },
    ];
    const second = await collect({ model: "strata-demo", messages: followUp, tools });
    expect(textOf(second)).toBe(`The tool returned: ${result.content}`);
    expect(second.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    const usage = second.find((e) => e.type === "usage");
    const firstUsage = first.find((e) => e.type === "usage");
    // The call and its result are part of the prompt now.
    expect(usage?.type === "usage" && firstUsage?.type === "usage" && usage.promptTokens > firstUsage.promptTokens).toBe(true);
  });

  it("through the test model, calls compress_context with every FACT when asked and offered", async () => {
    const tools = [
      {
        type: "function" as const,
        function: { name: "compress_context", description: "Compress", parameters: { type: "object", properties: {} } },
      },
    ];
    const messages = [user("FACT city=Oslo"), { role: "assistant" as const, content: "ok" }, user("FACT pet=cat\nCOMPRESS_CONTEXT now")];
    const events = await collect({ model: "strata-demo", messages, tools });
    const callsEvent = events.find((e) => e.type === "tool_calls");
    if (callsEvent?.type !== "tool_calls") throw new Error("no tool call");
    expect(callsEvent.calls[0]?.name).toBe("compress_context");
    const args = JSON.parse(callsEvent.calls[0]!.arguments) as { summary: string };
    expect(args.summary).toBe("Summary of the conversation so far.\nFACT city=Oslo\nFACT pet=cat");
  });
});

describe("test model triggers and pacing", () => {
  it("answers RECALL from a system summary, taking the last occurrence", async () => {
    const messages: ChatMessage[] = [
      system("You are helpful."),
      system("Summary of the conversation so far.\nFACT color=blue\nFACT size=XL"),
      user("Actually FACT color=green"),
      { role: "assistant", content: "Noted." },
      user("RECALL color? RECALL size? RECALL missing?"),
    ];
    const events = await collect({ model: "strata-demo", messages });
    expect(textOf(events)).toBe("color=green\nsize=XL\nmissing=UNKNOWN");
  });

  it("replies with exactly REPLY_WORDS words, deterministically", async () => {
    const a = textOf(await collect({ model: "strata-demo", messages: [user("Fill please REPLY_WORDS=250")] }));
    const b = textOf(await collect({ model: "strata-demo", messages: [user("Fill please REPLY_WORDS=250")] }));
    expect(a.split(" ")).toHaveLength(250);
    expect(a).toMatch(/^[a-z]+( [a-z]+)*$/);
    expect(b).toBe(a);
  });

  it("the demo server streams in chunks of tokensPerChunk words, and knows no test trigger", async () => {
    const own = await startDemoServer({ tokensPerChunk: 5 });
    try {
      const events: ChatStreamEvent[] = [];
      const ownEndpoint = createModelEndpoint({ baseURL: own.url, apiKey: "test-key", maxRetries: 0 });
      for await (const event of streamChat({ endpoint: ownEndpoint, model: "strata-demo", messages: [user("REPLY_WORDS=23")] }))
        events.push(event);
      const text = textOf(events);
      expect(text).toMatch(/^\*\*Demo model\*\* — you said: “REPLY_WORDS=23”/);
      expect(events.filter((e) => e.type === "text")).toHaveLength(Math.ceil(text.split(/\s+/).filter(Boolean).length / 5));
    } finally {
      await own.close();
    }
  });

  it("through the test model, streams in its tokensPerChunk instead", async () => {
    server.setLatency({ tokensPerChunk: 4 });
    const events = await collect({ model: "strata-demo", messages: [user("REPLY_WORDS=23")] });
    expect(events.filter((e) => e.type === "text")).toHaveLength(6);
    expect(textOf(events).split(" ")).toHaveLength(23);
  });
});

describe("summary requests", () => {
  const transcript: ChatMessage[] = [
    user("Let's plan the trip. FACT city=Oslo"),
    { role: "assistant", content: "Great, Oslo it is." },
    user("FACT budget=1200 EUR\nAlso FACT city=Oslo"),
    { role: "assistant", content: "Budget noted." },
    user("And FACT hotel=Thon."),
  ];
  // The material as the engine formats it: one labelled line per message.
  const body = transcript.map((m, i) => `[${m.role} #${i + 1}]: ${m.content ?? ""}`).join("\n");

  it("a summary keeps every FACT line", async () => {
    const { text } = await summarizer().complete(summaryRequest(asks("summary", body)));
    const lines = text.split("\n");
    expect(lines[0]).toBe("Summary of the conversation so far.");
    expect(lines.slice(1, 4)).toEqual(["FACT city=Oslo", "FACT budget=1200 EUR", "FACT hotel=Thon."]);
    expect(lines[4]).toBe('Digest: 5 messages (3 user, 2 assistant, 0 tool); last user message: "And fact hotel=Thon.".');
    expect(lines).toHaveLength(5);
    expect(server.requests.at(-1)?.kind).toBe("summary");
  });

  it("a structured summary (JSON asked for) returns JSON with the facts", async () => {
    const { text } = await summarizer().complete(summaryRequest(asks("structured", body), { json: true }));
    const parsed = JSON.parse(text) as Record<string, string[]>;
    expect(parsed.facts).toEqual(["FACT city=Oslo", "FACT budget=1200 EUR", "FACT hotel=Thon."]);
    // Quotes lower-case "FACT " so they never count as fact lines.
    expect(parsed.goals).toEqual([body.replace(/FACT /g, "fact ").replace(/\s+/g, " ").slice(0, 80).trim()]);
    expect(parsed).toMatchObject({ decisions: [], completed: [], openItems: [] });
    const recorded = server.requests.at(-1)?.body as { response_format?: unknown; temperature?: number; max_tokens?: number };
    expect(recorded.response_format).toEqual({ type: "json_object" });
    expect(recorded.temperature).toBe(0.3);
    expect(recorded.max_tokens).toBe(500);
  });

  it("a digest (one line asked for) joins the facts, or quotes the material", async () => {
    const withFacts = await summarizer().complete(summaryRequest(asks("digest", body)));
    expect(withFacts.text).toBe("FACT city=Oslo; FACT budget=1200 EUR; FACT hotel=Thon.");
    const long = "No facts here, just   a long\nrambling message that goes on and on well past eighty characters.";
    const without = await summarizer().complete(summaryRequest(asks("digest", long)));
    expect(without.text).toBe(long.replace(/\s+/g, " ").slice(0, 80));
  });
});

describe("test model: faults", () => {
  it("http_500 becomes a ModelError of kind http (no retry on loopback)", async () => {
    server.injectFault({ type: "http_500" });
    const error = await modelError(collect({ model: "strata-demo", messages: [user("hi")] }));
    expect(error.kind).toBe("http");
    expect(error.status).toBe(500);
    expect(error.message).toBe("The model server returned HTTP 500");
    // Used up: the next request succeeds.
    expect(textOf(await collect({ model: "strata-demo", messages: [user("hi")] }))).toMatch(/Demo model/);
  });

  it("http_error 401 says the key is invalid", async () => {
    server.injectFault({ type: "http_error", status: 401 });
    const error = await modelError(collect({ model: "strata-demo", messages: [user("hi")] }));
    expect(error.message).toBe("Invalid API key");
    expect(error.kind).toBe("http");
  });

  it("hang ends with a timeout error within timeoutMs", async () => {
    server.injectFault({ type: "hang" });
    const started = Date.now();
    const error = await modelError(collect({ model: "strata-demo", messages: [user("hi")], timeoutMs: 400 }));
    const elapsed = Date.now() - started;
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe("The model did not answer within 400 ms");
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(2500);
  });

  it("hang on a summary request times out the summarizer", async () => {
    server.injectFault({ type: "hang", target: "summary" });
    const started = Date.now();
    const error = await modelError(
      summarizer().complete(summaryRequest(asks("summary", "FACT a=1"), { timeoutMs: 1000 })),
    );
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe("The model did not answer within 1 s");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("a caller's abort ends a hung request as kind aborted", async () => {
    server.injectFault({ type: "hang" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await modelError(collect({ model: "strata-demo", messages: [user("hi")], signal: controller.signal }));
    expect(error.kind).toBe("aborted");
  });

  it("an abort mid-stream is kind aborted, a stalled stream is kind timeout", async () => {
    server.setLatency({ chatLatencyMs: 60 });
    const controller = new AbortController();
    const seen: ChatStreamEvent[] = [];
    const aborted = await modelError(
      (async () => {
        for await (const event of streamChat({
          endpoint,
          model: "strata-demo",
          messages: [user("REPLY_WORDS=90")],
          signal: controller.signal,
        })) {
          seen.push(event);
          controller.abort();
        }
      })(),
    );
    expect(aborted.kind).toBe("aborted");
    expect(seen).toHaveLength(1);

    // Chunks every 600 ms against a 200 ms idle timeout: the headers arrive, then it stalls.
    server.setLatency({ chatLatencyMs: 600 });
    const started = Date.now();
    const stalled = await modelError(collect({ model: "strata-demo", messages: [user("REPLY_WORDS=9")], timeoutMs: 200 }));
    expect(stalled.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(550);
  });

  it("empty returns 200 with no content", async () => {
    server.injectFault({ type: "empty", times: 2 });
    const events = await collect({ model: "strata-demo", messages: [user("hi")] });
    expect(textOf(events)).toBe("");
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    const { text } = await summarizer().complete(summaryRequest(asks("summary", "FACT a=1")));
    expect(text).toBe("");
  });

  it("malformed_stream becomes a ModelError of kind malformed", async () => {
    server.injectFault({ type: "malformed_stream" });
    const events: ChatStreamEvent[] = [];
    const error = await modelError(
      (async () => {
        for await (const event of streamChat({ endpoint, model: "strata-demo", messages: [user("one two three four five six")] }))
          events.push(event);
      })(),
    );
    expect(error.kind).toBe("malformed");
    expect(error.message).toBe("The model stream was malformed");
    // The valid first chunk got through before the garbage, and only it.
    expect(textOf(events)).toBe("**Demo model** —");
  });

  it("malformed_stream on a non-streaming summary is malformed too", async () => {
    server.injectFault({ type: "malformed_stream", target: "summary" });
    const error = await modelError(summarizer().complete(summaryRequest(asks("summary", "x"))));
    expect(error.kind).toBe("malformed");
  });

  it("delay waits, then answers normally", async () => {
    server.injectFault({ type: "delay", ms: 300 });
    const started = Date.now();
    const events = await collect({ model: "strata-demo", messages: [user("RECALL a?")] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(textOf(events)).toBe("a=UNKNOWN");
  });

  it("invalid_json answers a structured request with prose", async () => {
    server.injectFault({ type: "invalid_json", target: "summary" });
    const { text } = await summarizer().complete(summaryRequest(asks("structured", "FACT a=1"), { json: true }));
    expect(() => JSON.parse(text)).toThrow();
    expect(text.length).toBeGreaterThan(0);
  });

  it("targets only matching requests and honours times", async () => {
    server.injectFault({ type: "http_500", target: "summary", times: 2 });
    // Chat requests pass untouched.
    await collect({ model: "strata-demo", messages: [user("hi")] });
    const summary = () => summarizer().complete(summaryRequest(asks("summary", "x")));
    expect((await modelError(summary())).status).toBe(500);
    expect(server.faults()).toEqual([{ type: "http_500", target: "summary", times: 1 }]);
    expect((await modelError(summary())).status).toBe(500);
    expect((await summary()).text).toMatch(/^Summary of the conversation so far\./);
    expect(server.requests.map((r) => [r.kind, r.fault])).toEqual([
      ["chat", undefined],
      ["summary", "http_500"],
      ["summary", "http_500"],
      ["summary", undefined],
    ]);
  });
});

describe("test model: recording and admin endpoints", () => {
  it("records parsed request bodies with path and time", async () => {
    const before = Date.now();
    await collect({ model: "strata-demo", messages: [user("record me")] });
    expect(server.requests).toHaveLength(1);
    const [recorded] = server.requests;
    expect(recorded).toMatchObject({ method: "POST", path: "/v1/chat/completions", kind: "chat" });
    expect(recorded!.time).toBeGreaterThanOrEqual(before);
    expect(recorded!.body).toMatchObject({
      model: "strata-demo",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "record me" }],
    });
  });

  it("keeps an idle connection open for a minute, the demo server as the proxy in front of it", async () => {
    // Browser tests' request context reuses sockets without reading the hint: at Node's
    // 5 s default a call after a pause could meet the socket closing ("socket hang up").
    expect(IDLE_KEEP_ALIVE_MS).toBeGreaterThanOrEqual(60_000);
    const demo = await startDemoServer({ port: 0 });
    try {
      for (const url of [server.url, demo.url]) {
        const response = await fetch(`${url}/models`);
        expect(response.headers.get("keep-alive")).toBe(`timeout=${IDLE_KEEP_ALIVE_MS / 1000}`);
      }
    } finally {
      await demo.close();
    }
  });

  it("can be steered over HTTP", async () => {
    const admin = server.url.replace(/\/v1$/, "/__admin");
    const post = (path: string, body: unknown) =>
      fetch(`${admin}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    expect((await (await fetch(`${admin}/health`)).json()) as unknown).toEqual({ ok: true });

    const queued = await post("/faults", { type: "http_500", target: "chat" });
    expect(queued.status).toBe(200);
    expect(((await (await fetch(`${admin}/faults`)).json()) as { faults: unknown[] }).faults).toHaveLength(1);
    expect((await modelError(collect({ model: "strata-demo", messages: [user("hi")] }))).status).toBe(500);

    expect((await post("/faults", { type: "nonsense" })).status).toBe(400);
    expect((await post("/faults", [{ type: "hang" }, { type: "delay" }])).status).toBe(400); // delay needs ms
    await post("/faults", [{ type: "hang" }, { type: "empty" }]);
    expect(server.faults()).toHaveLength(2);
    expect((await fetch(`${admin}/faults`, { method: "DELETE" })).status).toBe(200);
    expect(server.faults()).toHaveLength(0);

    const requests = (await (await fetch(`${admin}/requests`)).json()) as { requests: { path: string; fault?: string }[] };
    expect(requests.requests).toHaveLength(1);
    expect(requests.requests[0]).toMatchObject({ path: "/v1/chat/completions", fault: "http_500" });

    const latency = await post("/latency", { chatLatencyMs: 40 });
    expect(await latency.json()).toEqual({ chatLatencyMs: 40, summaryLatencyMs: 0, tokensPerChunk: 3 });
    const started = Date.now();
    await collect({ model: "strata-demo", messages: [user("REPLY_WORDS=15")] }); // 5 chunks × 40 ms
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect((await post("/latency", { chatLatencyMs: -1 })).status).toBe(400);

    await post("/faults", { type: "empty" });
    expect((await post("/reset", {})).status).toBe(200);
    expect(server.requests).toHaveLength(0);
    expect(server.faults()).toHaveLength(0);
    const restarted = Date.now();
    await collect({ model: "strata-demo", messages: [user("REPLY_WORDS=15")] });
    expect(Date.now() - restarted).toBeLessThan(150);
  });

  it("applies summaryLatencyMs to summary requests only", async () => {
    server.setLatency({ summaryLatencyMs: 250 });
    let started = Date.now();
    await collect({ model: "strata-demo", messages: [user("hi")] });
    expect(Date.now() - started).toBeLessThan(200);
    started = Date.now();
    await summarizer().complete(summaryRequest(asks("summary", "x")));
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });
});

describe("listModels", () => {
  it("lists the server's models", async () => {
    const models = await listModels(endpoint);
    expect(models).toEqual(expect.arrayContaining(["strata-demo", "gpt-4o-mini", "gpt-4o"]));
    expect(server.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/models" });
  });

  it("returns null when nothing listens", async () => {
    const dead = await startDemoServer();
    const deadEndpoint = createModelEndpoint({ baseURL: dead.url });
    await dead.close();
    expect(await listModels(deadEndpoint)).toBeNull();
  });

  it("returns null within ~3 s when the server never answers", async () => {
    // A raw TCP server that accepts and stays silent.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const started = Date.now();
    try {
      expect(await listModels(createModelEndpoint({ baseURL: `http://127.0.0.1:${port}/v1` }))).toBeNull();
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(2900);
      expect(elapsed).toBeLessThan(6000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("test model: close()", () => {
  it("does not hang on a hung request and ends it for the client", async () => {
    const own = await startTestServer();
    own.injectFault({ type: "hang" });
    const ownEndpoint = createModelEndpoint({ baseURL: own.url });
    const pending = (async () => {
      for await (const _ of streamChat({ endpoint: ownEndpoint, model: "strata-demo", messages: [user("hi")], timeoutMs: 20_000 })) {
        // nothing arrives
      }
    })();
    const outcome = pending.then(
      () => "resolved",
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(own.requests).toHaveLength(1);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
    const error = await outcome;
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe("network");
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("the model a new conversation starts with", () => {
  // A server Strata has never seen (its own model names): gpt-4o-mini, the default, would fail the first message.
  it("is the first model a server lists when the default is not among them; the default when it is, or when nothing is listed", async () => {
    const outside = await startOutsideModel();
    try {
      const env = { OPENAI_BASE_URL: outside.url };
      expect(await startingModel(env, createModelEndpoint({ baseURL: outside.url, maxRetries: 0 }))).toBe("outside-small");
      expect(await startingModel({ ...env, STRATA_DEFAULT_MODEL: "outside-large" }, createModelEndpoint({ baseURL: outside.url, maxRetries: 0 }))).toBe("outside-large");
    } finally {
      await outside.close();
    }
    // The test server lists gpt-4o-mini among others.
    expect(await startingModel({ OPENAI_BASE_URL: server.url }, endpoint)).toBe("gpt-4o-mini");
    const dead = await startDemoServer();
    const deadEndpoint = createModelEndpoint({ baseURL: dead.url });
    await dead.close();
    expect(await startingModel({ OPENAI_BASE_URL: dead.url }, deadEndpoint)).toBe("gpt-4o-mini");
    expect(await startingModel({})).toBe("strata-demo");
  });
});

describe("endpoint selection", () => {
  it("uses the key and base URL from the environment", async () => {
    const withKey = await getModelEndpoint({ OPENAI_API_KEY: "sk-test" });
    expect(withKey).toMatchObject({ baseURL: "https://api.openai.com/v1", demo: false });
    expect(withKey.client.apiKey).toBe("sk-test");
    const local = await getModelEndpoint({ OPENAI_BASE_URL: "http://localhost:11434/v1" });
    expect(local).toMatchObject({ baseURL: "http://localhost:11434/v1", demo: false });
    expect(local.client.maxRetries).toBe(0);
    expect(withKey.client.maxRetries).toBe(2);
    expect(defaultModel({ OPENAI_API_KEY: "sk-test" })).toBe("gpt-4o-mini");
    expect(defaultModel({})).toBe("strata-demo");
    expect(defaultModel({ STRATA_DEFAULT_MODEL: "llama3.1" })).toBe("llama3.1");
    expect(isDemoMode({ OPENAI_BASE_URL: "http://localhost:11434/v1" })).toBe(false);
  });

  it("starts one in-process demo server without a key or base URL", async () => {
    const first = await getModelEndpoint({});
    const second = await getModelEndpoint({});
    expect(first.demo).toBe(true);
    expect(first.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(second.baseURL).toBe(first.baseURL);
    expect(second.client).toBe(first.client);
    const events: ChatStreamEvent[] = [];
    for await (const event of streamChat({ endpoint: first, model: "strata-demo", messages: [user("FACT x=1 RECALL x?")] }))
      events.push(event);
    // The demo a user runs echoes what it was told: it has no test triggers.
    expect(textOf(events)).toMatch(/^\*\*Demo model\*\* — you said: “fact x=1 RECALL x\?”/);
  });

  it("gives the demo server a user runs no test controls: /__admin answers 404", async () => {
    const demo = await getModelEndpoint({});
    const origin = new URL(demo.baseURL).origin;
    const fault = await fetch(`${origin}/__admin/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "http_500" }),
    });
    expect(fault.status).toBe(404);
    for (const path of ["/__admin/faults", "/__admin/requests", "/__admin/health"]) {
      expect((await fetch(`${origin}${path}`)).status).toBe(404);
    }
    // The 404 above did not queue a fault: the next reply is the model's.
    const events: ChatStreamEvent[] = [];
    for await (const event of streamChat({ endpoint: demo, model: "strata-demo", messages: [user("hello")] })) events.push(event);
    expect(textOf(events)).toMatch(/^\*\*Demo model\*\*/);
  });

  it("the test model answers /__admin", async () => {
    const response = await fetch(`${new URL(server.url).origin}/__admin/faults`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ faults: [] });
  });
});
