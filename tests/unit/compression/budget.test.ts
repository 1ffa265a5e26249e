import { beforeEach, describe, expect, it } from "vitest";
import { contextBudget } from "@/lib/compression/budget";
import { AutoCompressionManager } from "@/lib/compression/manager";
import { contextWindow, modelCatalog } from "@/lib/llm/models";
import { DEFAULT_SETTINGS } from "@/lib/compression/settings";
import { chat, msg, resetSeq, setup, transcriptOf } from "./fakes";

beforeEach(() => resetSeq());

describe("the budget: settings turned into figures that work for one window", () => {
  for (const window of [4096, 8192, 16_384, 32_768, 128_000]) {
    it(`at ${window} tokens, defaults keep the hard limit above the threshold and the reply reserve within 15%`, () => {
      const budget = contextBudget(window, DEFAULT_SETTINGS);
      expect(budget.reserve).toBeLessThanOrEqual(Math.floor(window * 0.15));
      expect(budget.hardLimit).toBe(window - budget.reserve);
      expect(budget.thresholdTokens).toBeLessThan(budget.hardLimit);
      expect(budget.preemptiveTokens).toBeLessThan(budget.thresholdTokens);
      expect(budget.targetTokens).toBeLessThan(budget.preemptiveTokens);
      expect(budget.summaryMaxTokens).toBeLessThanOrEqual(DEFAULT_SETTINGS.summaryMaxTokens);
      expect(budget.summaryMaxTokens).toBeLessThanOrEqual(budget.summaryBudgetTokens);
    });
  }

  it("says which settings it had to change for a small window, and why", () => {
    const budget = contextBudget(8192, DEFAULT_SETTINGS);
    const reserve = budget.adjustments.find((a) => a.setting === "hardLimitReserve")!;
    expect(reserve).toMatchObject({ configured: 4096, effective: 1228 });
    expect(reserve.reason).toMatch(/15% of a 8,192-token window/);
    expect(contextBudget(128_000, DEFAULT_SETTINGS).adjustments).toEqual([]);
  });

  it("does not call a threshold adjusted when only floating-point error separates it from the setting", () => {
    // A 15% reserve of these windows is a whole number of tokens: the hard limit less 5
    // points is 0.85 − 0.05, which is 0.7999999999999999 in floating point.
    for (const window of [2000, 4000, 8000, 20_000]) {
      const budget = contextBudget(window, DEFAULT_SETTINGS);
      expect(budget.reserve, `${window}`).toBe(window * 0.15);
      expect(budget.threshold, `${window}`).toBe(DEFAULT_SETTINGS.threshold);
      const shares = budget.adjustments.filter((a) => a.setting === "threshold" || a.setting === "preemptiveThreshold");
      expect(shares, `${window}`).toEqual([]);
    }
  });

  it("clamps a threshold that would sit above the hard limit, and a pre-emptive threshold above that", () => {
    const budget = contextBudget(8192, { ...DEFAULT_SETTINGS, threshold: 0.98, preemptiveThreshold: 0.95 });
    expect(budget.threshold).toBeCloseTo(budget.hardLimit / 8192 - 0.05);
    expect(budget.preemptiveThreshold).toBeCloseTo(budget.threshold - 0.1);
    expect(budget.adjustments.map((a) => a.setting)).toEqual(expect.arrayContaining(["threshold", "preemptiveThreshold"]));
  });

  it("keeps the fixed part (system prompt, tools) out of what summaries and kept messages may use", () => {
    const bare = contextBudget(8192, DEFAULT_SETTINGS, 0);
    const heavy = contextBudget(8192, DEFAULT_SETTINGS, 2000);
    expect(heavy.summaryBudgetTokens).toBeLessThan(bare.summaryBudgetTokens);
    expect(heavy.keepTokens).toBeLessThan(bare.keepTokens);
  });
});

describe("defaults summarize before they truncate", () => {
  it("at 8k with the default 4,096-token reserve, a context at 60% is left alone and one past the threshold is summarized, never cut", async () => {
    const { manager, summarizer } = setup({ ...DEFAULT_SETTINGS, carryDetails: false }, 8192);
    let messages = chat(4, 400);
    while (manager.measure(transcriptOf(messages)).ratio < 0.6) messages = [...messages, ...chat(1, 400)];
    const calm = await manager.process(transcriptOf([...messages, msg("user", "so far so good?")]));
    expect(calm.created).toEqual([]);
    expect(manager.buildRequest(calm.transcript).messages).toHaveLength(messages.length + 2);
    while (manager.measure(transcriptOf(messages)).ratio < 0.82) messages = [...messages, ...chat(1, 400)];
    const change = await manager.process(transcriptOf([...messages, msg("user", "and now?")]));
    expect(summarizer.calls.length).toBeGreaterThan(0);
    expect(change.created.map((c) => c.kind)).not.toContain("truncation");
    expect(change.created.some((c) => c.kind === "summary")).toBe(true);
  });

  it("over the hard limit in count mode, a token guard summarizes before the count trigger would", async () => {
    const { manager } = setup({ triggerMode: "count", countThreshold: 40, countWindow: 30, countKeepRecent: 4 }, 8192);
    const messages = chat(8, 2400); // 16 messages: far below the count trigger, far over the window
    const change = await manager.process(transcriptOf([...messages, msg("user", "next")]));
    expect(change.created[0]).toMatchObject({ kind: "summary" });
    expect(change.attempts[0]!.reason).toMatch(/hard limit|threshold/);
  });
});

describe("the window lookup", () => {
  it("settings overrides are matched the same way by the engine and by the views (case-insensitive, longest prefix)", () => {
    const engine = new AutoCompressionManager({
      summarizer: { complete: async () => ({ text: "" }) },
      tokens: { count: (value) => Math.ceil(value.length / 4) },
      models: modelCatalog,
      logger: { info() {}, warn() {}, error() {} },
    });
    const overrides = { "LLAMA3.1": 8192, "llama3.1:70b": 32_768 };
    const settings = { ...DEFAULT_SETTINGS, contextWindowOverrides: overrides };
    for (const [model, window] of [["llama3.1:8b", 8192], ["llama3.1:70b-instruct", 32_768], ["gpt-4o", 128_000]] as const) {
      expect(contextWindow(model, overrides)).toBe(window);
      expect(engine.measure(transcriptOf([msg("user", "hi")], { model }), settings).contextWindow).toBe(window);
    }
  });
});

describe("the largest tool result sent whole", () => {
  it("is the setting on a large window and 10% of a small one, saying why", () => {
    expect(contextBudget(131_072, DEFAULT_SETTINGS).toolResultMaxTokens).toBe(8000);
    expect(contextBudget(131_072, { ...DEFAULT_SETTINGS, toolResultMaxTokens: 2000 }).toolResultMaxTokens).toBe(2000);
    const small = contextBudget(4096, DEFAULT_SETTINGS);
    expect(small.toolResultMaxTokens).toBe(409);
    expect(small.adjustments.find((a) => a.setting === "toolResultMaxTokens")).toMatchObject({ configured: 8000, effective: 409 });
    // Never below what is worth keeping of a head and a tail.
    expect(contextBudget(1024, DEFAULT_SETTINGS).toolResultMaxTokens).toBe(256);
  });
});

describe("tool-output settings at the boundary", () => {
  it("refuses a bound under 256 tokens or more than 100 kept rounds, and a stored bad value falls back to the default alone", async () => {
    const { compressionSettingsSchema, settingsFromStored } = await import("@/lib/compression/settings");
    expect(compressionSettingsSchema.safeParse({ toolResultMaxTokens: 256, keepToolRounds: 100 }).success).toBe(true);
    expect(compressionSettingsSchema.safeParse({ toolResultMaxTokens: 255 }).success).toBe(false);
    expect(compressionSettingsSchema.safeParse({ keepToolRounds: 101 }).success).toBe(false);
    expect(compressionSettingsSchema.safeParse({ keepToolRounds: 1.5 }).success).toBe(false);
    const stored = settingsFromStored({ keepToolRounds: -1, toolResultMaxTokens: 4000, clearToolResults: false });
    expect(stored).toMatchObject({ keepToolRounds: 3, toolResultMaxTokens: 4000, clearToolResults: false });
  });
});
