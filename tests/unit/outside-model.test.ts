// The outside model, checked through real HTTP with the official `openai` client.
// Expected values are written out by hand (or with the test's own copy of the counting
// rule), so a wrong rule in behaviour.ts cannot vouch for itself.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI, { APIConnectionError, APIError } from "openai";
import type { ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { afterEach, describe, expect, it } from "vitest";
import { MIXED_CHOICES, asksForTitle, cachedAfter, classify, isSalient, materialOf, promptTokens, splitSentences, stripLabel, summarize, type Message } from "../support/outside-model/behaviour";
import { startOutsideModel, type OutsideModel, type OutsideModelOptions, type SummaryMode } from "../support/outside-model/server";

const own = (text: string) => Math.ceil(text.length / 4);

const started: OutsideModel[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((model) => model.close()));
});

async function start(options: OutsideModelOptions = {}) {
  const model = await startOutsideModel({ port: 0, ...options });
  started.push(model);
  // No retries: a 500 or a dropped connection must surface as-is.
  const client = new OpenAI({ baseURL: model.url, apiKey: "outside", maxRetries: 0, timeout: 10_000 });
  return { model, client };
}

const SYSTEM = "Summarize the conversation below.";
const USER = "[user #1]: hello there. My name is Ada Lovelace.\nthe code is 4417. nothing much happened!";
const ASSISTANT = "[assistant #2]: FACT the sky is blue. ok then.";
const summaryMessages: ChatCompletionMessageParam[] = [
  { role: "system", content: SYSTEM },
  { role: "user", content: USER },
  { role: "assistant", content: ASSISTANT },
];
const SUMMARY_PROMPT_TOKENS = 3 + (4 + own(SYSTEM)) + (4 + own(USER)) + (4 + own(ASSISTANT));

const EXPECTED = {
  extractive: "Summary: My name is Ada Lovelace.\nthe code is 4417.\nFACT the sky is blue.",
  terse: "Summary of 3 earlier lines.\nthe code is 4417.\nFACT the sky is blue.",
  verbose:
    "Detailed summary:\nhello there.\nMy name is Ada Lovelace.\nthe code is 4417.\nnothing much happened!\nFACT the sky is blue.\nok then.\n" +
    "In conclusion, the conversation covered all of the above.",
  foreign: "对话摘要：\n要点：My name is Ada Lovelace.\n要点：the code is 4417.\n要点：FACT the sky is blue.",
  drop_facts: "Summary: My name is Ada Lovelace.",
  empty: "",
  prose: "Summary: My name is Ada Lovelace.\nthe code is 4417.\nFACT the sky is blue.",
} as const;

function summaryRequest(extra: Partial<ChatCompletionCreateParamsNonStreaming> = {}): ChatCompletionCreateParamsNonStreaming {
  return { model: "outside-small", messages: summaryMessages, ...extra };
}

async function streamed(client: OpenAI, params: ChatCompletionCreateParamsNonStreaming) {
  const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } });
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
  const finish = chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0]?.finish_reason;
  const usage = chunks.find((chunk) => chunk.usage)?.usage ?? undefined;
  return { chunks, text, finish, usage };
}

describe("pure rules", () => {
  it("ignores bracketed labels when scoring and strips them on output", () => {
    expect(isSalient("[user #3]: hello there.")).toBe(false);
    expect(isSalient("[user #3]: Hello there.")).toBe(false);
    expect(isSalient("[Summary of messages 1–20 (level 1)]")).toBe(false);
    expect(isSalient("we met Bob.")).toBe(true);
    expect(isSalient("Bob met us.")).toBe(false);
    expect(isSalient("the port is 8080.")).toBe(true);
    expect(isSalient("FACT: cats purr.")).toBe(true);
    expect(stripLabel("[Summary of messages 1–20 (level 1)] [user #4]: We met.")).toBe("We met.");
  });

  it("reads a request that ends by asking for a summary: a summary request, tools or not, about the span it counts back", () => {
    const tools = [{ type: "function", function: { name: "current_time" } }];
    const chatPart: Message[] = [
      { role: "system", content: "You are helpful." },
      { role: "user", content: "A." },
      { role: "assistant", content: "B." },
      { role: "user", content: "C." },
      { role: "assistant", content: "D." },
      { role: "user", content: "E." },
    ];
    const ask = (text: string): Message[] => [...chatPart, { role: "user", content: text }];
    const request = ask("[tag]\nSummarize the 2 messages above that end 1 message before this one. Start with a title line.");
    expect(classify({ messages: request, tools })).toBe("summary");
    expect(materialOf(request)).toBe("C.\nD.");
    expect(asksForTitle(request)).toBe(true);
    expect(materialOf(ask("Merge the 3 summaries above that end right before this one."))).toBe("C.\nD.\nE.");
    // A user asking the chat for a summary names no span: that is a chat turn.
    expect(classify({ messages: ask("Summarize the article above, please."), tools })).toBe("chat");
    expect(classify({ messages: chatPart, tools })).toBe("chat");
  });

  it("serves a request from the newest chat or summary request, whichever shares the longer prefix", () => {
    const long = (label: string) => `${label} ${"word ".repeat(1200)}`;
    const chatRequest: Message[] = [{ role: "system", content: long("system") }, { role: "user", content: "hello" }];
    const summaryRequest: Message[] = [...chatRequest, { role: "assistant", content: "hi" }, { role: "user", content: "Summarize the 1 messages above that end 1 message before this one." }];
    const shared = cachedAfter([{ messages: chatRequest }, undefined], { messages: summaryRequest });
    expect(shared).toBeGreaterThanOrEqual(1024);
    expect(shared % 128).toBe(0);
    expect(shared).toBeLessThanOrEqual(promptTokens({ messages: chatRequest }));
    const other: Message[] = [{ role: "system", content: long("other") }, { role: "user", content: "x" }];
    expect(cachedAfter([{ messages: other }, { messages: summaryRequest }], { messages: [...chatRequest, { role: "user", content: "again" }] })).toBe(shared);
    expect(cachedAfter([{ messages: other }, undefined], { messages: chatRequest })).toBe(0);
  });

  it("splits on newlines and after sentence punctuation", () => {
    expect(splitSentences("One. Two!  Three?\nfour\n\n five.")).toEqual(["One.", "Two!", "Three?", "four", "five."]);
  });

  it("runs in process with exactly the server's behaviour", async () => {
    const { model, client } = await start();
    const material = materialOf(summaryMessages as Message[]);
    for (const mode of ["extractive", "terse", "verbose", "cut", "empty", "foreign", "drop_facts", "prose"] as const) {
      model.configure({ summaryMode: mode });
      for (const json of [false, true]) {
        const response = await client.chat.completions.create(summaryRequest({ max_tokens: 12, ...(json ? { response_format: { type: "json_object" } } : {}) }));
        const local = summarize(material, mode, 12, json);
        expect({ mode, json, text: response.choices[0]?.message.content, finish: response.choices[0]?.finish_reason }).toEqual({
          mode,
          json,
          text: local.text,
          finish: local.finishReason,
        });
      }
    }
  });
});

describe("cached tokens in usage", () => {
  // 1,300 of its own tokens, the same in every request below.
  const preamble = "Summarize the conversation and keep every number. ".repeat(104);
  const material = (n: number): ChatCompletionMessageParam[] => [
    { role: "system", content: preamble },
    { role: "user", content: `Turn ${n}: the code is ${n * 7}.` },
  ];

  it("a summary request reports the prefix it shares with the previous one, in 128-token steps from 1,024", async () => {
    const { model, client } = await start();
    const first = await client.chat.completions.create({ model: "outside-small", messages: material(1) });
    const second = await client.chat.completions.create({ model: "outside-small", messages: material(2) });
    expect(first.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    // The system message (4 + 1,300 tokens) is shared; the user message differs from its 6th character on (1 token).
    const shared = Math.floor((4 + own(preamble) + 1) / 128) * 128;
    expect(second.usage?.prompt_tokens_details?.cached_tokens).toBe(shared);
    expect(model.requests().map((r) => r.cachedTokens)).toEqual([0, shared]);
  });

  it("a chat request is served from the previous chat request only, streamed usage included", async () => {
    const { model, client } = await start();
    const tools: ChatCompletionTool[] = [{ type: "function", function: { name: "noop", parameters: { type: "object", properties: {} } } }];
    const chat = (n: number) => ({ model: "outside-small", messages: [{ role: "system" as const, content: `You chat. ${preamble}` }, ...material(n).slice(1)], tools });
    await client.chat.completions.create({ model: "outside-small", messages: material(1) });
    const cachedOf = async (n: number) => {
      let cached: number | undefined;
      const stream = await client.chat.completions.create({ ...chat(n), stream: true, stream_options: { include_usage: true } });
      for await (const chunk of stream) if (chunk.usage) cached = chunk.usage.prompt_tokens_details?.cached_tokens;
      return cached;
    };
    expect(await cachedOf(1)).toBe(0);
    expect(await cachedOf(2)).toBeGreaterThanOrEqual(1024);
    expect(model.requests().map((r) => r.kind)).toEqual(["summary", "chat", "chat"]);
  });
});

describe("summary modes over HTTP", () => {
  it("extractive keeps the salient sentences, with usage by its own count", async () => {
    const { model, client } = await start();
    const response = await client.chat.completions.create(summaryRequest());
    expect(response.choices[0]?.message.content).toBe(EXPECTED.extractive);
    expect(response.choices[0]?.finish_reason).toBe("stop");
    expect(response.usage).toEqual({
      prompt_tokens: SUMMARY_PROMPT_TOKENS,
      completion_tokens: own(EXPECTED.extractive),
      total_tokens: SUMMARY_PROMPT_TOKENS + own(EXPECTED.extractive),
      prompt_tokens_details: { cached_tokens: 0 },
    });
    expect(model.requests()).toMatchObject([{ kind: "summary", promptTokens: SUMMARY_PROMPT_TOKENS, cachedTokens: 0, status: 200, reply: { text: EXPECTED.extractive } }]);
    expect(model.stats()).toEqual({ chat: 0, summary: 1, failed: 0, overWindow: 0 });
  });

  it.each([
    ["extractive", 5, "Summary: My name is "],
    ["terse", 4, "Summary of 3 earl"],
    ["foreign", 3, "对话摘要：\n要点：My n"],
  ] as const)("%s respects max_tokens by its own count", async (mode, max, text) => {
    const { client } = await start({ summaryMode: mode });
    const plain = await client.chat.completions.create(summaryRequest());
    expect(plain.choices[0]?.message.content).toBe(EXPECTED[mode]);
    const response = await client.chat.completions.create(summaryRequest({ max_tokens: max }));
    expect(response.choices[0]?.message.content).toBe(text.slice(0, max * 4));
    expect(response.choices[0]?.finish_reason).toBe("length");
    expect(response.usage?.completion_tokens).toBe(max);
    // max_completion_tokens is honoured the same way.
    const newer = await client.chat.completions.create(summaryRequest({ max_completion_tokens: max }));
    expect(newer.choices[0]?.message.content).toBe(text.slice(0, max * 4));
  });

  it("verbose ignores max_tokens and repeats every sentence", async () => {
    const { client } = await start({ summaryMode: "verbose" });
    const response = await client.chat.completions.create(summaryRequest({ max_tokens: 5 }));
    expect(response.choices[0]?.message.content).toBe(EXPECTED.verbose);
    expect(response.choices[0]?.finish_reason).toBe("stop");
    expect(response.usage?.completion_tokens).toBe(own(EXPECTED.verbose));
    expect(response.usage!.completion_tokens).toBeGreaterThan(5);
  });

  it("cut truncates the verbose text mid-word at max_tokens", async () => {
    const { client } = await start({ summaryMode: "cut" });
    const response = await client.chat.completions.create(summaryRequest({ max_tokens: 10 }));
    const text = response.choices[0]!.message.content!;
    expect(response.choices[0]?.finish_reason).toBe("length");
    expect(text.length).toBeGreaterThan(0);
    expect(own(text)).toBeLessThanOrEqual(10);
    expect(EXPECTED.verbose.startsWith(text)).toBe(true);
    expect(text.at(-1)).toMatch(/\S/);
    expect(EXPECTED.verbose[text.length]).toMatch(/\S/);
  });

  it("empty answers nothing", async () => {
    const { client } = await start({ summaryMode: "empty" });
    const response = await client.chat.completions.create(summaryRequest());
    expect(response.choices[0]?.message.content).toBe("");
    expect(response.choices[0]?.finish_reason).toBe("stop");
    expect(response.usage?.completion_tokens).toBe(0);
  });

  it("foreign answers in Chinese framing and keeps digits", async () => {
    const { client } = await start({ summaryMode: "foreign" });
    const response = await client.chat.completions.create(summaryRequest());
    expect(response.choices[0]?.message.content).toBe(EXPECTED.foreign);
  });

  it("drop_facts drops every sentence with a digit or FACT, but is never empty", async () => {
    const { client } = await start({ summaryMode: "drop_facts" });
    const response = await client.chat.completions.create(summaryRequest());
    expect(response.choices[0]?.message.content).toBe(EXPECTED.drop_facts);
    const onlyFacts = await client.chat.completions.create({
      model: "outside-small",
      messages: [
        { role: "system", content: "Condense this." },
        { role: "user", content: "the code is 4417. FACT water is wet." },
      ],
    });
    expect(onlyFacts.choices[0]?.message.content).toBe("Summary: the conversation continued.");
  });

  it("answers JSON when asked, and invalid JSON when cut", async () => {
    const { client } = await start();
    const response = await client.chat.completions.create(summaryRequest({ response_format: { type: "json_object" } }));
    expect(JSON.parse(response.choices[0]!.message.content!)).toEqual({
      goals: [],
      decisions: [],
      completed: [],
      openItems: [],
      facts: ["My name is Ada Lovelace.", "the code is 4417.", "FACT the sky is blue."],
    });
    const cut = await client.chat.completions.create(summaryRequest({ response_format: { type: "json_object" }, max_tokens: 8 }));
    expect(cut.choices[0]?.finish_reason).toBe("length");
    expect(cut.choices[0]?.message.content).toHaveLength(32);
    expect(() => JSON.parse(cut.choices[0]!.message.content!)).toThrow();
  });

  it("prose answers prose to a JSON request and extractive text otherwise", async () => {
    const { client } = await start({ summaryMode: "prose" });
    const json = await client.chat.completions.create(summaryRequest({ response_format: { type: "json_object" } }));
    expect(json.choices[0]?.message.content).toBe(
      "Here is a summary of the conversation: My name is Ada Lovelace. the code is 4417. FACT the sky is blue.",
    );
    const plain = await client.chat.completions.create(summaryRequest());
    expect(plain.choices[0]?.message.content).toBe(EXPECTED.prose);
  });

  it("mixed picks a seeded mode per request, reproducibly", async () => {
    const material = materialOf(summaryMessages as Message[]);
    const candidates = MIXED_CHOICES.map((mode) => summarize(material, mode, 15, false).text);
    const runs: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const { client } = await start({ summaryMode: "mixed", seed: 7 });
      const texts: string[] = [];
      for (let i = 0; i < 12; i++) {
        const response = await client.chat.completions.create(summaryRequest({ max_tokens: 15 }));
        texts.push(response.choices[0]!.message.content!);
      }
      runs.push(texts);
    }
    expect(runs[1]).toEqual(runs[0]);
    for (const text of runs[0]!) expect(candidates).toContain(text);
    expect(new Set(runs[0]).size).toBeGreaterThan(1);
  });

  it("switches mode at runtime", async () => {
    const { model, client } = await start();
    model.configure({ summaryMode: "terse" });
    const response = await client.chat.completions.create(summaryRequest());
    expect(response.choices[0]?.message.content).toBe(EXPECTED.terse);
  });

  it("treats a request that offers tools as chat even with a summary-like system prompt", async () => {
    const { model, client } = await start();
    await client.chat.completions.create(summaryRequest({ tools: [weatherTool] }));
    await client.chat.completions.create({ model: "x", messages: [{ role: "system", content: "You are kind." }, { role: "user", content: "Merge nothing." }] });
    expect(model.requests().map((request) => request.kind)).toEqual(["chat", "chat"]);
  });
});

const weatherTool: ChatCompletionTool = {
  type: "function",
  function: { name: "get_weather", description: "Weather for a city", parameters: { type: "object", properties: { city: { type: "string" } } } },
};

describe("chat", () => {
  it("notes the first 12 words of the last user message", async () => {
    const { client } = await start();
    const response = await client.chat.completions.create({
      model: "outside-large",
      messages: [
        { role: "user", content: "ignored" },
        { role: "assistant", content: "sure" },
        { role: "user", content: "one two three four five six seven eight nine ten eleven twelve thirteen" },
      ],
    });
    const text = "Noted: one two three four five six seven eight nine ten eleven twelve.";
    expect(response.choices[0]?.message.content).toBe(text);
    expect(response.model).toBe("outside-large");
    expect(response.usage?.prompt_tokens).toBe(3 + (4 + own("ignored")) + (4 + own("sure")) + (4 + own("one two three four five six seven eight nine ten eleven twelve thirteen")));
    expect(response.usage?.completion_tokens).toBe(own(text));
  });

  it("replies with N of its own tokens of deterministic filler", async () => {
    const { client } = await start();
    const ask = () => client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "talk <<reply 25>>" }] });
    const first = await ask();
    const text = first.choices[0]!.message.content!;
    expect(text).toHaveLength(100);
    expect(text).toMatch(/^[a-z][a-z ]*[a-z]$/);
    expect(first.usage?.completion_tokens).toBe(25);
    expect((await ask()).choices[0]?.message.content).toBe(text);
  });

  it("recalls every sentence of the request that contains a word", async () => {
    const { client } = await start();
    const found = await client.chat.completions.create({
      model: "m",
      messages: [
        { role: "system", content: "[Summary of messages 1–4 (level 1)]\nThe vault code is ZEBRA42. Nothing else." },
        { role: "user", content: "Remember ZEBRA42 please. ok." },
        { role: "user", content: "what was it? <<recall ZEBRA42>>" },
      ],
      // Without tools, a first system message mentioning a summary would make this a summary request.
      tools: [weatherTool],
    });
    expect(found.choices[0]?.message.content).toBe("The vault code is ZEBRA42. | Remember ZEBRA42 please.");
    const missing = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "<<recall OKAPI>>" }] });
    expect(missing.choices[0]?.message.content).toBe("NOT FOUND");
  });

  it("recalls a word only where it stands whole, so a search is still asked for", async () => {
    const { client } = await start();
    const messages: ChatCompletionMessageParam[] = [
      { role: "user", content: "Project Falcon-10 uses port 4070. The key is x-1." },
      { role: "user", content: "<<recall Falcon-1>>" },
    ];
    const plain = await client.chat.completions.create({ model: "m", messages });
    expect(plain.choices[0]?.message.content).toBe("NOT FOUND");
    const searched = await client.chat.completions.create({ model: "m", messages: [...messages.slice(0, 1), { role: "user", content: "<<recall x-1>>" }] });
    expect(searched.choices[0]?.message.content).toBe("The key is x-1.");
  });

  it("ignores a tool directive for a tool that is not offered", async () => {
    const { client } = await start();
    const response = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: '<<tool get_weather {"city":"Oslo"}>>' }] });
    expect(response.choices[0]?.message.content).toBe('Noted: <<tool get_weather {"city":"Oslo"}>>.');
  });

  it("waits chatLatencyMs before answering", async () => {
    const { client } = await start({ chatLatencyMs: 150 });
    const before = Date.now();
    await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(Date.now() - before).toBeGreaterThanOrEqual(140);
  });
});

describe("streaming", () => {
  it.each(["extractive", "terse", "verbose", "cut", "empty", "foreign", "drop_facts", "prose"] as const)(
    "%s: streamed deltas equal the non-streamed reply",
    async (mode: SummaryMode) => {
      const { client } = await start({ summaryMode: mode });
      const params = summaryRequest({ max_tokens: 10 });
      const whole = await client.chat.completions.create(params);
      const { text, finish, usage } = await streamed(client, params);
      expect(text).toBe(whole.choices[0]?.message.content);
      expect(finish).toBe(whole.choices[0]?.finish_reason);
      expect(usage).toEqual(whole.usage);
    },
  );

  it("has its own chunk shape: role with content, 1–9 character pieces, finish with the last piece, usage last", async () => {
    const { client } = await start();
    const { chunks, text, usage } = await streamed(client, { model: "m", messages: [{ role: "user", content: "long <<reply 200>>" }] });
    expect(text).toHaveLength(800);
    const first = chunks[0]!.choices[0]!.delta;
    expect(first.role).toBe("assistant");
    expect(first.content?.length).toBeGreaterThan(0);

    const withChoice = chunks.filter((chunk) => chunk.choices.length > 0);
    const contents = withChoice.map((chunk) => chunk.choices[0]!.delta.content).filter((content): content is string => content !== undefined);
    for (const piece of contents) expect(Array.from(piece).length).toBeGreaterThanOrEqual(1);
    for (const piece of contents) expect(Array.from(piece).length).toBeLessThanOrEqual(9);
    expect(new Set(contents.map((piece) => piece.length)).size).toBeGreaterThan(3);
    expect(withChoice.some((chunk) => Object.keys(chunk.choices[0]!.delta).length === 0)).toBe(true);

    const lastWithChoice = withChoice.at(-1)!.choices[0]!;
    expect(lastWithChoice.finish_reason).toBe("stop");
    expect(lastWithChoice.delta.content?.length).toBeGreaterThan(0);
    expect(withChoice.filter((chunk) => chunk.choices[0]!.finish_reason).length).toBe(1);

    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(usage?.completion_tokens).toBe(200);
  });

  it("keeps characters outside the BMP whole across pieces", async () => {
    const { client } = await start();
    const faces = "😀".repeat(30);
    const { chunks, text } = await streamed(client, { model: "m", messages: [{ role: "user", content: faces }] });
    expect(text).toBe(`Noted: ${faces}.`);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const chunk of chunks) expect(chunk.choices[0]?.delta.content ?? "").not.toMatch(loneSurrogate);
  });

  it("streams a tool call round trip", async () => {
    const { model, client } = await start();
    const args = '{"city":"Oslo","unit":"C"}';
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: `weather please <<tool get_weather ${args}>>` }];
    const { chunks, usage } = await streamed(client, { model: "m", messages, tools: [weatherTool] });

    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: "tc_1", type: "function", function: { name: "get_weather", arguments: '{"c' } });
    for (const call of calls.slice(1)) {
      expect(call.id).toBeUndefined();
      expect(call.function?.arguments?.length).toBeGreaterThanOrEqual(2);
      expect(call.function?.arguments?.length).toBeLessThanOrEqual(5);
    }
    expect(calls.map((call) => call.function?.arguments).join("")).toBe(args);
    const withChoice = chunks.filter((chunk) => chunk.choices.length > 0);
    expect(withChoice.at(-1)!.choices[0]!.finish_reason).toBe("tool_calls");
    expect(withChoice.at(-1)!.choices[0]!.delta.tool_calls).toBeDefined();
    expect(usage?.completion_tokens).toBe(own(`get_weather${args}`));

    const toolCalls = [{ id: "tc_1", type: "function" as const, function: { name: "get_weather", arguments: args } }];
    const followUp: ChatCompletionMessageParam[] = [
      ...messages,
      { role: "assistant", content: null, tool_calls: toolCalls },
      { role: "tool", tool_call_id: "tc_1", content: "sunny, 21C" },
    ];
    const answer = await streamed(client, { model: "m", messages: followUp, tools: [weatherTool] });
    expect(answer.text).toBe("Tool said: sunny, 21C");
    expect(answer.usage?.prompt_tokens).toBe(
      3 + (4 + own(`weather please <<tool get_weather ${args}>>`)) + (4 + own(JSON.stringify(toolCalls))) + (4 + own("sunny, 21C")) + own(JSON.stringify([weatherTool])),
    );
    expect(model.requests()[1]?.promptTokens).toBe(answer.usage?.prompt_tokens);
  });

  it("is accepted by the openai stream helper, tool calls included", async () => {
    const { client } = await start();
    const stream = client.chat.completions.stream({
      model: "m",
      messages: [{ role: "user", content: '<<tool get_weather {"city":"Bergen"}>>' }],
      tools: [weatherTool],
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe("tool_calls");
    expect(final.choices[0]?.message.tool_calls).toMatchObject([{ id: "tc_1", function: { name: "get_weather", arguments: '{"city":"Bergen"}' } }]);
  });

  it("answers a non-streamed tool call", async () => {
    const { client } = await start();
    const response = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: '<<tool get_weather {"city":"Rome"}>>' }], tools: [weatherTool] });
    expect(response.choices[0]?.finish_reason).toBe("tool_calls");
    expect(response.choices[0]?.message.content).toBeNull();
    expect(response.choices[0]?.message.tool_calls).toEqual([{ id: "tc_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } }]);
  });
});

describe("usage modes", () => {
  it("never omits usage, streamed or not", async () => {
    const { client } = await start({ usage: "never" });
    const response = await client.chat.completions.create(summaryRequest());
    expect(response.usage).toBeUndefined();
    const { chunks, usage } = await streamed(client, summaryRequest());
    expect(usage).toBeUndefined();
    expect(chunks.every((chunk) => chunk.choices.length > 0)).toBe(true);
  });

  it("random includes usage about half the time, reproducibly by seed", async () => {
    const patterns: boolean[][] = [];
    for (let run = 0; run < 2; run++) {
      const { client } = await start({ usage: "random", seed: 3 });
      const pattern: boolean[] = [];
      for (let i = 0; i < 20; i++) pattern.push((await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] })).usage !== undefined);
      patterns.push(pattern);
    }
    expect(patterns[1]).toEqual(patterns[0]);
    expect(patterns[0]).toContain(true);
    expect(patterns[0]).toContain(false);
  });
});

describe("faults", () => {
  it("failRate 1 answers every summary with an OpenAI-style 500", async () => {
    const { model, client } = await start({ failRate: 1 });
    const error = await client.chat.completions.create(summaryRequest()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
    expect((error as APIError).type).toBe("server_error");
    // Chat is not affected.
    await expect(client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] })).resolves.toBeDefined();
    expect(model.stats()).toEqual({ chat: 1, summary: 1, failed: 1, overWindow: 0 });
    expect(model.requests()[0]?.status).toBe(500);
  });

  it("rejects a prompt above the context window with context_length_exceeded", async () => {
    const { model, client } = await start({ contextWindow: 30 });
    const content = "x".repeat(200);
    const error = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
    expect((error as APIError).code).toBe("context_length_exceeded");
    expect((error as APIError).type).toBe("invalid_request_error");
    const prompt = 3 + 4 + 50;
    expect((error as APIError).message).toContain(`This model's maximum context length is 30 tokens. However, your messages resulted in ${prompt} tokens.`);
    await expect(client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "short" }] })).resolves.toBeDefined();
    expect(model.stats().overWindow).toBe(1);
  });

  it("waits summaryLatencyMs before a summary", async () => {
    const { client } = await start({ summaryLatencyMs: 150 });
    const before = Date.now();
    await client.chat.completions.create(summaryRequest());
    expect(Date.now() - before).toBeGreaterThanOrEqual(140);
  });

  it("hangs summaries until close() releases them", async () => {
    const { model, client } = await start({ hang: true });
    const pending = client.chat.completions.create(summaryRequest()).then(
      () => "answered",
      (error: unknown) => error,
    );
    const settled = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve("still hanging"), 300))]);
    expect(settled).toBe("still hanging");
    expect(model.requests()).toMatchObject([{ kind: "summary", status: 0 }]);
    await model.close();
    expect(await pending).toBeInstanceOf(APIConnectionError);
  });
});

describe("routes", () => {
  it("lists its models", async () => {
    const { client } = await start();
    const models = [];
    for await (const entry of client.models.list()) models.push(entry);
    expect(models).toEqual([
      { id: "outside-small", object: "model", created: 0, owned_by: "outside" },
      { id: "outside-large", object: "model", created: 0, owned_by: "outside" },
    ]);
  });

  it("serves the admin endpoints", async () => {
    const { model, client } = await start();
    const base = model.url.replace(/\/v1$/, "");
    expect(await (await fetch(`${base}/admin/health`)).json()).toEqual({ ok: true });

    const config = await fetch(`${base}/admin/config`, { method: "POST", body: JSON.stringify({ summaryMode: "terse", contextWindow: 1000 }) });
    expect(config.status).toBe(200);
    const response = await client.chat.completions.create(summaryRequest());
    expect(response.choices[0]?.message.content).toBe(EXPECTED.terse);

    const requests = (await (await fetch(`${base}/admin/requests`)).json()) as { kind: string; promptTokens: number }[];
    expect(requests).toMatchObject([{ kind: "summary", promptTokens: SUMMARY_PROMPT_TOKENS }]);
    expect(await (await fetch(`${base}/admin/stats`)).json()).toEqual({ chat: 0, summary: 1, failed: 0, overWindow: 0 });

    expect((await fetch(`${base}/admin/reset`, { method: "POST" })).status).toBe(200);
    expect(model.requests()).toEqual([]);
    expect(model.stats()).toEqual({ chat: 0, summary: 0, failed: 0, overWindow: 0 });

    const bad = await fetch(`${base}/admin/config`, { method: "POST", body: JSON.stringify({ summaryMode: "poetry" }) });
    expect(bad.status).toBe(400);
  });

  it("keeps an idle connection open for a minute, so a client reusing it never meets it closing", async () => {
    const { model } = await start();
    const health = await fetch(`${model.url.replace(/\/v1$/, "")}/admin/health`);
    expect(health.headers.get("keep-alive")).toBe("timeout=65");
  });

  it("answers 404 for unknown routes and 400 for invalid JSON", async () => {
    const { model } = await start();
    const missing = await fetch(`${model.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBeTruthy();
    const invalid = await fetch(`${model.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });
});

describe("independence", () => {
  it("imports only node built-ins, zod and its own files, and no tokenizer", () => {
    const dir = join(import.meta.dirname, "../support/outside-model");
    const sources = readdirSync(dir).filter((file) => file.endsWith(".ts"));
    expect(sources.sort()).toEqual(["behaviour.ts", "cli.ts", "images.ts", "server.ts"]);
    for (const file of sources) {
      const text = readFileSync(join(dir, file), "utf8");
      const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]!);
      for (const specifier of specifiers) expect(specifier, `${file} imports ${specifier}`).toMatch(/^(node:|zod$|\.\/[\w-]+$)/);
      expect(text).not.toMatch(/tiktoken/);
    }
  });
});

describe("chat modes and half_facts (recall)", () => {
  const searchTool: ChatCompletionTool = {
    type: "function",
    function: {
      name: "look_back",
      description: "Search the history of this conversation.",
      parameters: { type: "object", properties: { limit: { type: "integer" }, words: { type: "string" } }, required: ["words"] },
    },
  };
  const otherTool: ChatCompletionTool = { type: "function", function: { name: "current_time", description: "The time.", parameters: { type: "object", properties: {} } } };
  const ask: ChatCompletionMessageParam[] = [
    { role: "system", content: "You are helpful." },
    { role: "user", content: "hello. The code name of project k113 is v100113." },
    { role: "assistant", content: "ok" },
    { role: "user", content: "<<recall k120>>" },
  ];

  it("search: a word it cannot see is looked up with an offered search tool, then answered from the result only", async () => {
    const { client } = await start({ chatMode: "search" });
    const first = await client.chat.completions.create({ model: "m", messages: ask, tools: [otherTool, searchTool] });
    const call = first.choices[0]!.message.tool_calls?.[0];
    expect(call?.type === "function" ? { name: call.function.name, args: JSON.parse(call.function.arguments) } : null).toEqual({ name: "look_back", args: { words: "k120" } });
    const answered = await client.chat.completions.create({
      model: "m",
      tools: [otherTool, searchTool],
      messages: [
        ...ask,
        { role: "assistant", content: null, tool_calls: [call!] },
        { role: "tool", tool_call_id: call!.id, content: "#40 (user): The code name of project k120 is v100120.\n#3 (user): unrelated k113 words." },
      ],
    });
    expect(answered.choices[0]!.message.content).toBe("#40 (user): The code name of project k120 is v100120.");
    // A word it can see is answered at once; without a search tool it says what it sees.
    const seen = await client.chat.completions.create({ model: "m", messages: [...ask.slice(0, 3), { role: "user", content: "<<recall k113>>" }], tools: [searchTool] });
    expect(seen.choices[0]!.message.content).toBe("The code name of project k113 is v100113.");
    const noTool = await client.chat.completions.create({ model: "m", messages: ask, tools: [otherTool] });
    expect(noTool.choices[0]!.message.content).toBe("NOT FOUND");
  });

  it("ignore: never calls a tool, not even when told to", async () => {
    const { client } = await start({ chatMode: "ignore" });
    const unseen = await client.chat.completions.create({ model: "m", messages: ask, tools: [searchTool] });
    expect(unseen.choices[0]!.message.tool_calls ?? []).toEqual([]);
    expect(unseen.choices[0]!.message.content).toBe("NOT FOUND");
    const told = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: '<<tool current_time {"a":1}>>' }], tools: [otherTool] });
    expect(told.choices[0]!.message.tool_calls ?? []).toEqual([]);
  });

  it("half_facts keeps about half of the fact sentences, every other salient sentence, and varies from pass to pass", () => {
    const facts = Array.from({ length: 200 }, (_, i) => `The code name of project k${100 + i} is v${100_000 + i}.`);
    const material = [...facts, "We met Ada Lovelace there.", "plain words only here."].join("\n");
    const text = summarize(material, "half_facts", undefined, false).text;
    const kept = facts.filter((fact) => text.includes(fact)).length;
    expect(kept).toBeGreaterThan(70);
    expect(kept).toBeLessThan(130);
    expect(text).toContain("We met Ada Lovelace there.");
    expect(text).not.toContain("plain words only here.");
    let state = 1;
    const other = summarize(material, "half_facts", undefined, false, () => ((state = (state * 48271) % 2147483647) / 2147483647)).text;
    expect(other).not.toBe(text);
  });
});
