// The engine against a model server that is not ours (tests/support/outside-model):
// its token count, its summaries, its failures. Every row must keep the promise.
import { describe, expect, it } from "vitest";
import { problemsOf, quickMatrix } from "../../support/matrix";
import { simulate } from "../../support/simulation";

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
