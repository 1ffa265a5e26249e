// A conversation's system prompt is counted once per text, not on every turn: a
// 20,000-character prompt without spaces made every turn seconds long.
import { afterAll, describe, expect, it } from "vitest";
import { countSystemPrompt } from "@/lib/chat/compressor";
import { closeTokenPool, tokenPoolStats } from "@/lib/llm/token-pool";
import { countMessageTokens } from "@/lib/llm/tokens";

afterAll(() => closeTokenPool());

const prompt = "システムプロンプトは長いが一度だけ数えられるべきです".repeat(800);

describe("countSystemPrompt", () => {
  it("counts a long prompt once, on a worker thread, however often a turn asks", async () => {
    const before = tokenPoolStats()?.completed ?? 0;
    const counts = await Promise.all([countSystemPrompt(prompt), countSystemPrompt(prompt)]);
    for (let turn = 0; turn < 5; turn++) counts.push(await countSystemPrompt(prompt));
    expect(new Set(counts)).toEqual(new Set([countMessageTokens({ role: "system", content: prompt })]));
    expect(tokenPoolStats()?.completed).toBe(before + 1);
    // Another text is another count.
    await countSystemPrompt(`${prompt}!`);
    expect(tokenPoolStats()?.completed).toBe(before + 2);
  });
});
