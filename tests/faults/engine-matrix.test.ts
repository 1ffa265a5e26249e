// The engine against a model server that is not ours (tests/support/outside-model):
// its token count, its summaries, its failures. Every row must keep the promise.
import { describe, expect, it } from "vitest";
import { problemsOf, quickMatrix } from "../support/matrix";
import { simulate } from "../support/simulation";

describe("engine matrix against the outside model", () => {
  for (const scenario of quickMatrix()) {
    it(scenario.name, async () => {
      const result = await simulate(scenario);
      expect(problemsOf(result)).toEqual([]);
      // The run really compressed (a row that never did would prove nothing).
      expect(result.made.summaries + result.made.merges + result.made.truncations).toBeGreaterThan(0);
    }, 60_000);
  }

  it("the tight 3k configuration stays within one summary call per two turns", async () => {
    const row = quickMatrix().find((s) => s.name.startsWith("3k medium, tight"))!;
    const result = await simulate({ ...row, turns: 150 });
    expect(result.summaryCallsPer100Turns).toBeLessThanOrEqual(50);
    expect(result.truncations).toBe(0);
  }, 60_000);

  it("a 2k window with a summarizer that writes up to its bound makes no merge call per compaction over 400 turns", async () => {
    // Stand-ins leave such a window room for less than one summary: a merge of two would
    // have to come out smaller than one, and one was tried (and failed) at every compaction.
    const result = await simulate({ window: 2048, turns: 400, size: "short", summarizer: { mode: "verbose" }, factEvery: 5 });
    expect(problemsOf(result)).toEqual([]);
    const failedMerges = Object.entries(result.attempts.failedReasons).filter(([reason]) => reason.startsWith("merged summary"));
    expect(failedMerges.reduce((sum, [, count]) => sum + count, 0)).toBeLessThan(20);
  }, 60_000);

  it("facts folded three and more levels deep stay visible at 8k with default settings (plain sentences, no FACT lines)", async () => {
    // Folds and merges are bounded by the level budget: with one summary's bound this
    // run kept 9 of the 29 facts that ended three or more levels deep.
    const result = await simulate({ window: 8192, turns: 400, size: "medium", summarizer: { mode: "extractive" }, factEvery: 10, seed: 3 });
    const deep = result.retention.byDepth["3+"];
    expect(deep?.planted).toBeGreaterThanOrEqual(20);
    expect(deep!.visible / deep!.planted).toBeGreaterThanOrEqual(0.9);
    expect(problemsOf(result)).toEqual([]);
  }, 60_000);
});
