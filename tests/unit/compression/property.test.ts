import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { AutoCompressionManager } from "@/lib/compression/manager";
import { UNCALIBRATED_FACTOR } from "@/lib/compression/measure";
import { STRATEGIES, TRIGGER_MODES } from "@/lib/compression/settings";
import type { CompactionRecord } from "@/lib/compression/types";
import { MemoryStore } from "../../support/simulation";
import { assertValidToolPairs, counter, FakeSummarizer, MemoryLogger, msg, MutableSettings, OVERHEAD, resetSeq, TEST_SETTINGS, text, wireTokens } from "./fakes";

/**
 * Random draws through fast-check's `gen`, so a failing conversation is shrunk (fewer
 * turns, smaller numbers) and replayed from the seed fast-check prints.
 */
function draws(g: fc.GeneratorValue) {
  return {
    int: (min: number, max: number) => g(fc.integer, { min, max }),
    pick: <T,>(items: readonly T[]) => items[g(fc.integer, { min: 0, max: items.length - 1 })]!,
    chance: (p: number) => g(fc.integer, { min: 0, max: 999 }) < p * 1000,
  };
}

async function run(id: number, random: ReturnType<typeof draws>) {
  resetSeq();
  const window = random.int(1500, 9000);
  const reserve = random.int(100, 600);
  const triggerMode = random.pick(TRIGGER_MODES);
  const values = {
    ...TEST_SETTINGS,
    enabled: random.chance(0.85),
    triggerMode,
    strategy: random.pick(STRATEGIES),
    keepRecentCount: random.int(0, 8),
    hardLimitReserve: reserve,
    maxSummaryTokensPerLevel: random.int(60, 800),
    countThreshold: 12,
    countWindow: random.int(4, 10),
    countKeepRecent: random.int(0, 6),
    windowSize: random.int(6, 16),
    compressionBatchSize: 4,
    extractFieldMaxChars: random.int(30, 200),
    budgetNote: random.chance(0.3),
  };
  const settings = new MutableSettings(values);
  const summarizer = new FakeSummarizer();
  const failureRate = random.pick([0, 0, 0.2, 0.5]);
  summarizer.respond = () => (random.chance(failureRate) ? random.pick([new Error("boom"), "", "{not json"]) : undefined);
  const manager = new AutoCompressionManager({ summarizer, tokens: counter, models: { contextWindow: () => window }, logger: new MemoryLogger() });
  const systemPrompt = random.chance(0.8) ? `System ${text(random.int(10, 400))}` : "";
  const toolTokens = random.pick([0, 0, 120, 300]);
  const store = new MemoryStore({ conversationId: `conv-${id}`, model: "m", systemPrompt, systemPromptTokens: systemPrompt ? counter.count(systemPrompt) + OVERHEAD : 0, toolTokens });
  // The server counts differently from us by a constant factor, and reports usage most of the time.
  const serverFactor = random.pick([0.8, 1, 1.15, 1.4]);
  const reportsUsage = random.chance(0.8);
  let lastUser = "";

  const size = () => (random.chance(0.08) ? random.int(6000, 40_000) : random.int(10, 1500));
  const beforeModelCall = async () => {
    const snapshot = settings.snapshot();
    const change = await manager.process(store.active(), snapshot);
    store.save(change);
    expect(store.coverageProblems(), `conversation ${id}`).toEqual([]);
    const active = store.active();
    const request = manager.buildRequest(active, snapshot);
    const sent = request.messages.reduce((sum, m) => sum + wireTokens(m), 0) + toolTokens;
    const { hardLimit } = manager.budget(active, snapshot);
    const { calibration } = manager.measure(active, snapshot);
    // Planned with the factor the engine knows: within the hard limit; and once the
    // server has reported usage, within it by the server's own count too (give or take
    // the rounding of the reported figure).
    expect(Math.ceil(sent * calibration.factor), `conversation ${id}: request fits`).toBeLessThanOrEqual(Math.max(hardLimit, 0));
    if (calibration.source === "reported") expect(Math.ceil(sent * serverFactor), `conversation ${id}: fits by the server's count`).toBeLessThanOrEqual(Math.max(hardLimit, 0) * 1.01);
    expect(Math.ceil(sent * serverFactor), `conversation ${id}: never over the window`).toBeLessThanOrEqual(window * (serverFactor > UNCALIBRATED_FACTOR ? serverFactor / UNCALIBRATED_FACTOR : 1));
    assertValidToolPairs(request.messages);
    const lastSent = request.messages.filter((m) => m.role === "user").at(-1);
    expect(lastSent?.content?.slice(0, 12), `conversation ${id}: last user message sent`).toBe(lastUser.slice(0, 12));
    return request;
  };

  const turns = random.int(4, 45);
  for (let turn = 0; turn < turns; turn++) {
    lastUser = `u${turn} ${random.chance(0.2) ? `FACT t${turn}=v${turn} ` : ""}${text(size())}`;
    store.messages.push(msg("user", lastUser, { pinned: random.chance(0.05) }));
    if (random.chance(0.1)) settings.set({ keepRecentCount: random.int(0, 8), enabled: random.chance(0.85) }); // settings change mid-conversation
    const request = await beforeModelCall();
    const requestTokens = request.messages.reduce((sum, m) => sum + wireTokens(m), 0) + toolTokens;
    const usage = reportsUsage ? { promptTokens: Math.round(requestTokens * serverFactor), completionTokens: 5, requestTokens } : undefined;
    if (random.chance(0.3)) {
      const calls = Array.from({ length: random.int(1, 3) }, (_, i) => ({ id: `c${turn}-${i}`, name: "tool", arguments: `{"i":${i}}` }));
      store.messages.push(msg("assistant", random.chance(0.5) ? "calling" : "", { toolCalls: calls, pinned: random.chance(0.03) }));
      for (const call of calls) store.messages.push(msg("tool", `result ${text(size())}`, { toolCallId: call.id, pinned: random.chance(0.03) }));
      await beforeModelCall();
    }
    store.messages.push(msg("assistant", `a${turn} ${text(size())}`, usage ? { usage } : {}));
    if (random.chance(0.5)) {
      const change = await manager.process(store.active(), settings.snapshot(), { background: true });
      store.save(change);
      expect(store.coverageProblems(), `conversation ${id}`).toEqual([]);
    }
  }
  return store;
}

describe("property: random conversations", () => {
  it("never send a request over the hard limit and keep every seq active or covered exactly once", async () => {
    const runs = Number(process.env.STRATA_PROPERTY_SEEDS ?? 60);
    const all: CompactionRecord[] = [];
    let conversation = 0;
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        conversation += 1;
        all.push(...(await run(conversation, draws(g))).compactions.values());
      }),
      { numRuns: runs, seed: 20261126 },
    );
    // The runs really exercised every path: summaries, merges and truncation.
    expect(all.filter((c) => c.kind === "summary" && c.level === 1).length).toBeGreaterThan(20);
    expect(all.filter((c) => c.kind === "summary" && c.level >= 2).length).toBeGreaterThan(0);
    expect(all.filter((c) => c.kind === "truncation").length).toBeGreaterThan(0);
  }, 60_000);
});
