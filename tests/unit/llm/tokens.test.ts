import { describe, expect, it } from "vitest";
import {
  countMessageTokens,
  countRequestTokens,
  countTextTokens,
  countToolsTokens,
  createTokenCounter,
  encodingForModel,
  getEncoder,
  REPLY_PRIMING_TOKENS,
  TOKENS_PER_MESSAGE,
  tokenCounter,
} from "@/lib/llm/tokens";
import type { ChatMessage } from "@/lib/compression/types";

describe("encodingForModel", () => {
  it.each([
    ["gpt-4o", "o200k_base"],
    ["gpt-4o-mini-2024-07-18", "o200k_base"],
    ["gpt-4.1-nano", "o200k_base"],
    ["gpt-5", "o200k_base"],
    ["o3-mini", "o200k_base"],
    ["openai/gpt-4o", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-4-turbo", "cl100k_base"],
    ["gpt-3.5-turbo-0125", "cl100k_base"],
    ["llama3.1:8b", "o200k_base"],
    ["strata-demo", "o200k_base"],
  ] as const)("%s → %s", (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });

  it("defaults to o200k_base without a model", () => {
    expect(encodingForModel()).toBe("o200k_base");
    expect(encodingForModel("")).toBe("o200k_base");
  });
});

describe("countTextTokens", () => {
  it("matches known o200k_base counts", () => {
    expect(countTextTokens("hello world")).toBe(2);
    expect(countTextTokens("hello world", "gpt-4o")).toBe(2);
    expect(countTextTokens("Hello, world!", "gpt-4o")).toBe(4);
  });

  it("matches known cl100k_base counts", () => {
    // The OpenAI cookbook's example: "tiktoken is great!" is 6 tokens in cl100k_base.
    expect(countTextTokens("tiktoken is great!", "gpt-4")).toBe(6);
    expect(countTextTokens("hello world", "gpt-3.5-turbo")).toBe(2);
  });

  it("is 0 for empty text and treats special-token text as ordinary text", () => {
    expect(countTextTokens("")).toBe(0);
    // encode() would throw on "<|endoftext|>"; as plain text it is several tokens.
    expect(countTextTokens("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("grows with the text", () => {
    const short = countTextTokens("The quick brown fox.");
    const long = countTextTokens("The quick brown fox. ".repeat(50));
    expect(long).toBeGreaterThan(short * 40);
  });
});

describe("chat accounting", () => {
  it("adds 3 framing tokens plus the role to each message", () => {
    const message: ChatMessage = { role: "user", content: "hello world" };
    expect(TOKENS_PER_MESSAGE).toBe(3);
    expect(countMessageTokens(message)).toBe(3 + 1 + 2);
    expect(countMessageTokens({ role: "system", content: "" })).toBe(3 + 1);
  });

  it("counts assistant tool calls by name and arguments", () => {
    const plain: ChatMessage = { role: "assistant", content: null };
    const withCall: ChatMessage = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "current_time", arguments: '{"zone":"UTC"}' } }],
    };
    const expected = 3 + countTextTokens("current_time") + countTextTokens('{"zone":"UTC"}');
    expect(countMessageTokens(withCall) - countMessageTokens(plain)).toBe(expected);
  });

  it("counts reply priming once per request", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "hello world" },
    ];
    const sum = messages.reduce((total, m) => total + countMessageTokens(m), 0);
    expect(REPLY_PRIMING_TOKENS).toBe(3);
    expect(countRequestTokens(messages)).toBe(sum + 3);
    expect(countRequestTokens([])).toBe(3);
  });

  it("adds tool definitions when given", () => {
    const messages: ChatMessage[] = [{ role: "user", content: "hi" }];
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Get the weather.",
          parameters: { type: "object", properties: { city: { type: "string", description: "City name" } } },
        },
      },
    ];
    const toolTokens = countToolsTokens(tools);
    // 7 (function) + "get_weather:Get the weather" + 3 (properties) + 3 (key) + "city:string:City name" + 12 (end)
    expect(toolTokens).toBe(
      7 + countTextTokens("get_weather:Get the weather") + 3 + 3 + countTextTokens("city:string:City name") + 12,
    );
    expect(countRequestTokens(messages, undefined, tools)).toBe(countRequestTokens(messages) + toolTokens);
    expect(countToolsTokens([])).toBe(0);
  });
});

describe("TokenCounter", () => {
  it("counts plain text with the model's encoding", () => {
    expect(tokenCounter.count("hello world")).toBe(2);
    expect(createTokenCounter("gpt-4").count("tiktoken is great!")).toBe(6);
    expect(tokenCounter.count("")).toBe(0);
  });

  it("reuses one encoder per encoding and stays fast on many calls", () => {
    expect(getEncoder("o200k_base")).toBe(getEncoder("o200k_base"));
    expect(getEncoder("cl100k_base")).not.toBe(getEncoder("o200k_base"));
    // Not timed: 20k counts would take minutes if an encoder were built per call.
    let total = 0;
    for (let i = 0; i < 20_000; i++) total += countMessageTokens({ role: "user", content: `message number ${i}` });
    expect(total).toBeGreaterThan(20_000 * 5);
  });
});
