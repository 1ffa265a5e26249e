import { describe, expect, it } from "vitest";
import { promptCacheKey, usageOf } from "../../../lib/llm/usage";

describe("usageOf", () => {
  it("reads prompt, cached and completion tokens", () => {
    expect(usageOf({ prompt_tokens: 2000, completion_tokens: 30, total_tokens: 2030, prompt_tokens_details: { cached_tokens: 1536 } })).toEqual({
      promptTokens: 2000,
      cachedTokens: 1536,
      completionTokens: 30,
    });
  });

  it("takes missing or null details as nothing cached", () => {
    expect(usageOf({ prompt_tokens: 10, completion_tokens: 2 })?.cachedTokens).toBe(0);
    expect(usageOf({ prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: null })?.cachedTokens).toBe(0);
    expect(usageOf({ prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cached_tokens: null } })?.cachedTokens).toBe(0);
  });

  it("holds a server that claims more cached than prompt tokens to its prompt count", () => {
    expect(usageOf({ prompt_tokens: 100, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 500 } })?.cachedTokens).toBe(100);
  });

  it("refuses usage that is not counts", () => {
    expect(usageOf(undefined)).toBeNull();
    expect(usageOf({ prompt_tokens: -1, completion_tokens: 2 })).toBeNull();
    expect(usageOf({ prompt_tokens: "10", completion_tokens: 2 })).toBeNull();
    expect(usageOf({ prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 1.5 } })).toBeNull();
  });
});

describe("promptCacheKey", () => {
  it("is one stable key per conversation that does not reveal its id, and none when switched off", () => {
    const a = promptCacheKey("conversation-a", {});
    expect(a).toEqual({ prompt_cache_key: expect.stringMatching(/^strata-[0-9a-f]{32}$/) });
    expect(promptCacheKey("conversation-a", {})).toEqual(a);
    expect(promptCacheKey("conversation-b", {})).not.toEqual(a);
    expect(JSON.stringify(a)).not.toContain("conversation-a");
    expect(promptCacheKey("conversation-a", { STRATA_PROMPT_CACHE_KEY: "0" })).toEqual({});
    expect(promptCacheKey(undefined, {})).toEqual({});
  });
});
