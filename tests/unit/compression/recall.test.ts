// The engine's side of recall: the notice once something is compressed, and a recall
// block handed in as data — placed just before the user's message, counted in the
// request, and the first thing left out when the request would pass the hard limit.
import { beforeEach, describe, expect, it } from "vitest";
import { contextBudget } from "@/lib/compression/budget";
import { historyNotice, recallBlock } from "@/lib/compression/recall";
import { recallByTools } from "@/lib/compression/settings";
import { compaction, counter, msg, resetSeq, setup, text, transcriptOf, WINDOW } from "./fakes";

beforeEach(() => resetSeq());

const recalled = [
  { seq: 3, role: "user", text: "The code name of project k13 is v123456." },
  { seq: 7, role: "assistant", text: "Noted: k13 is v123456." },
];

describe("history notice", () => {
  it("appears only once something is compressed, says how to look originals up, and is counted", () => {
    const { manager } = setup({}, 8192);
    const plain = transcriptOf([msg("user", "q", { seq: 1 })]);
    expect(manager.buildRequest(plain).messages.map((m) => m.content)).toEqual(["You are a helpful assistant.", "q"]);

    const compressed = transcriptOf([msg("user", "q", { seq: 11 })], { compactions: [compaction("a", 1, 10)] });
    const request = manager.buildRequest(compressed);
    const notice = request.messages[1]!.content!;
    expect(notice).toMatch(/summarized/);
    expect(notice).toMatch(/\(#12\)/);
    expect(notice).toMatch(/search_history/);
    expect(notice).toMatch(/open_history/);
    // Counted where the triggers look (measure) and where the request is sized.
    const without = manager.measure({ ...compressed, compactions: [] }).systemTokens;
    expect(manager.measure(compressed).systemTokens - without).toBe(counter.count(notice) + 4);
    expect(request.breakdown.systemTokens).toBe(manager.measure(compressed).systemTokens);
  });

  it("names the tools only when the recall mode allows them, and is absent with recall off", () => {
    const compressed = { compactions: [compaction("a", 1, 10)] };
    expect(historyNotice(compressed, { recallMode: "automatic" }, 8192)).not.toMatch(/search_history/);
    expect(historyNotice(compressed, { recallMode: "tools" }, 8192)).toMatch(/search_history/);
    expect(historyNotice(compressed, { recallMode: "off" }, 8192)).toBeNull();
  });

  it("leaves the tools out of `both` below an 8k window, where automatic recall stands in; `tools` keeps them at any window", () => {
    const compressed = { compactions: [compaction("a", 1, 10)] };
    expect(historyNotice(compressed, { recallMode: "both" }, 8192)).toMatch(/search_history/);
    expect(historyNotice(compressed, { recallMode: "both" }, 8191)).not.toMatch(/search_history/);
    expect(historyNotice(compressed, { recallMode: "both" }, 4096)).toMatch(/quoted just before it/);
    expect(historyNotice(compressed, { recallMode: "tools" }, 2048)).toMatch(/search_history/);
    expect(recallByTools({ recallMode: "both" }, 4096)).toBe(false);
    expect(recallByTools({ recallMode: "both" }, 8192)).toBe(true);
    expect(recallByTools({ recallMode: "tools" }, 2048)).toBe(true);
    expect(recallByTools({ recallMode: "automatic" }, 128_000)).toBe(false);
  });
});

describe("recall block", () => {
  it("takes whole candidates while they fit, best first, and counts itself as a message", () => {
    const block = recallBlock(recalled, 1000, counter)!;
    expect(block.messages).toBe(2);
    expect(block.text).toContain("[#3 user]: The code name of project k13 is v123456.");
    expect(block.tokens).toBe(counter.count(block.text) + 4);
    const small = recallBlock(recalled, block.tokens - 1, counter)!;
    expect(small.messages).toBe(1);
    expect(small.tokens).toBeLessThan(block.tokens);
    expect(recallBlock(recalled, 10, counter)).toBeNull();
  });

  it("goes just before the last user message, is counted in the request, and leaves the prefix before it unchanged", () => {
    const { manager, engine, settings } = setup();
    const transcript = transcriptOf(
      [msg("user", "earlier", { seq: 11 }), msg("assistant", "reply", { seq: 12 }), msg("user", "what is k13?", { seq: 13 })],
      { compactions: [compaction("a", 1, 10)] },
    );
    const block = recallBlock(recalled, 1000, counter)!;
    const plain = manager.buildRequest(transcript);
    const request = engine.buildRequest(transcript, settings.snapshot(), block);
    const at = request.messages.findIndex((m) => m.content === block.text);
    expect(at).toBe(request.messages.length - 2);
    expect(request.messages.at(-1)).toEqual({ role: "user", content: "what is k13?" });
    expect(request.messages.slice(0, at)).toEqual(plain.messages.slice(0, at));
    expect(request.recallTokens).toBe(block.tokens);
    expect(request.breakdown.systemTokens).toBe(plain.breakdown.systemTokens + block.tokens);
  });

  it("is left out before anything else when the request would pass the hard limit", () => {
    const { engine, settings } = setup({ hardLimitReserve: 200 });
    const hardLimit = contextBudget(WINDOW, settings.snapshot()).hardLimit;
    // Messages that fill the request to just under the hard limit (in our count, uncalibrated 1.2×).
    const fill = Math.floor(hardLimit / 1.2) - 400;
    const transcript = transcriptOf([msg("assistant", text(fill * 4 - 40), { seq: 11 }), msg("user", "what is k13?", { seq: 12 })], {
      compactions: [compaction("a", 1, 10)],
    });
    const big = recallBlock(recalled.concat(Array.from({ length: 40 }, (_, i) => ({ seq: 20 + i, role: "user", text: text(200, `w${i}`) }))), 3000, counter)!;
    const request = engine.buildRequest(transcript, settings.snapshot(), big);
    expect(request.messages.some((m) => m.content === big.text)).toBe(false);
    expect(request.recallTokens).toBe(0);
    // Nothing else was dropped or cut for it.
    expect(request.messages.at(-2)!.content).toBe(transcript.messages[0]!.content);
  });
});

describe("recall settings", () => {
  it("the recall budget is recallMaxTokens, at most 8% of the window, and says when it was scaled down", async () => {
    const { contextBudget: budget } = await import("@/lib/compression/budget");
    const { DEFAULT_SETTINGS } = await import("@/lib/compression/settings");
    expect(budget(32_768, DEFAULT_SETTINGS).recallTokens).toBe(1500);
    const small = budget(8192, DEFAULT_SETTINGS);
    expect(small.recallTokens).toBe(655);
    expect(small.adjustments.find((a) => a.setting === "recallMaxTokens")).toMatchObject({ configured: 1500, effective: 655 });
    expect(budget(1000, DEFAULT_SETTINGS).recallTokens).toBe(100);
  });

  it("a conversation may override the recall mode and size; unknown modes are refused", async () => {
    const { overridesPatchSchema } = await import("@/lib/settings-layers");
    expect(overridesPatchSchema.parse({ recallMode: "tools", recallMaxTokens: 800 })).toEqual({ recallMode: "tools", recallMaxTokens: 800 });
    expect(overridesPatchSchema.safeParse({ recallMode: "sometimes" }).success).toBe(false);
    expect(overridesPatchSchema.safeParse({ recallMaxTokens: 50 }).success).toBe(false);
  });
});
