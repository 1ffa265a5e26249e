// Long texts are counted on worker threads (lib/llm/token-pool.ts) with the same result
// as on this thread; repeated texts (system prompts) are counted once (count-cache.ts).
import { afterAll, describe, expect, it } from "vitest";
import { ContentCache, CountCache } from "@/lib/llm/count-cache";
import { ASYNC_MIN_CHARS, closeTokenPool, countMessageTokensAsync, countTextTokensAsync, tokenPoolStats } from "@/lib/llm/token-pool";
import { countMessageTokens, countTextTokens, createTokenCounter, rememberTextTokens } from "@/lib/llm/tokens";
import count from "@/lib/llm/token-worker.mjs";
import type { ChatMessage } from "@/lib/compression/types";

afterAll(() => closeTokenPool());

const JA = "これは長い会話を圧縮するためのテストですサーバーが一人のユーザーによって止まらないように";
const long = JA.repeat(Math.ceil((ASYNC_MIN_CHARS * 2) / JA.length));

describe("countTextTokensAsync", () => {
  it("counts a long text on a worker thread, with the count of this thread", async () => {
    const before = tokenPoolStats()?.completed ?? 0;
    expect(await countTextTokensAsync(long)).toBe(countTextTokens(long));
    expect(await countTextTokensAsync(long, "gpt-4")).toBe(countTextTokens(long, "gpt-4"));
    expect(tokenPoolStats()?.completed).toBe(before + 2);
  });

  it("counts a short text here, without a worker hop", async () => {
    const before = tokenPoolStats()?.completed ?? 0;
    expect(await countTextTokensAsync("hello world")).toBe(2);
    expect(await countTextTokensAsync("")).toBe(0);
    expect(tokenPoolStats()?.completed ?? 0).toBe(before);
  });

  it("gives every part of a message its own count, as countMessageTokens does", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: long },
      { role: "system", content: "short" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: JSON.stringify({ q: long }) } }] },
      { role: "tool", content: long, tool_call_id: "c1" },
    ];
    for (const message of messages) expect(await countMessageTokensAsync(message)).toBe(countMessageTokens(message));
  });

  it("the worker module is plain JavaScript that counts like this thread", () => {
    expect(count({ text: long, encoding: "o200k_base" })).toBe(countTextTokens(long));
  });
});

describe("CountCache", () => {
  it("counts a text once, even when asked for it twice at the same time", async () => {
    const cache = new CountCache(10);
    let counted = 0;
    const counter = async (text: string) => {
      counted++;
      return text.length;
    };
    const [a, b] = await Promise.all([cache.count("same prompt", counter), cache.count("same prompt", counter)]);
    expect([a, b, await cache.count("same prompt", counter)]).toEqual([11, 11, 11]);
    expect(counted).toBe(1);
  });

  it("keeps at most `limit` texts, dropping the least recently used", async () => {
    const cache = new CountCache(2);
    const seen: string[] = [];
    const counter = async (text: string) => (seen.push(text), text.length);
    await cache.count("a", counter);
    await cache.count("bb", counter);
    await cache.count("a", counter); // "a" is now the most recently used
    await cache.count("ccc", counter); // drops "bb"
    expect(cache.size).toBe(2);
    await cache.count("a", counter);
    await cache.count("bb", counter);
    expect(seen).toEqual(["a", "bb", "ccc", "bb"]);
  });

  it("does not remember a failed count", async () => {
    const cache = new CountCache(10);
    await expect(cache.count("x", () => Promise.reject(new Error("worker died")))).rejects.toThrow("worker died");
    expect(await cache.count("x", async () => 7)).toBe(7);
  });
});

describe("long texts the engine counts again", () => {
  it("a count made on a worker thread is what the engine's counter then gives, without counting", async () => {
    const text = `${long} stored message`;
    // Entered as a worker would; a deliberately wrong figure shows the engine did not recount.
    rememberTextTokens(text, undefined, 12_345);
    expect(createTokenCounter().count(text)).toBe(12_345);
    expect(createTokenCounter("gpt-4").count(text)).toBe(countTextTokens(text, "gpt-4"));
    const counted = await countTextTokensAsync(`${long} another`);
    expect(createTokenCounter().count(`${long} another`)).toBe(counted);
  });

  it("ContentCache keys depend on the text and the scope", () => {
    expect(ContentCache.key("a", "o200k_base")).not.toBe(ContentCache.key("a", "cl100k_base"));
    expect(ContentCache.key("a")).not.toBe(ContentCache.key("b"));
    expect(ContentCache.key("a")).toBe(ContentCache.key("a"));
  });
});
