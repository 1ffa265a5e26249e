// The larger sweep of the engine matrix: every window × message size × summarizer at
// default settings, and the tight settings on small windows.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fullSweep, problemsOf } from "../support/matrix";
import { simulate } from "../support/simulation";
import { checkTreeRun, treeRuns } from "../support/tree-property";

describe("engine sweep against the outside model", () => {
  for (const scenario of fullSweep()) {
    it(scenario.name, async () => {
      expect(problemsOf(await simulate(scenario))).toEqual([]);
    }, 120_000);
  }
});

describe("summary tree property, larger sweep", () => {
  it("height bound, passes per fact, coverage, nothing lost, no request over the window on 60 random long runs", async () => {
    // A fixed seed: a counterexample found once is found again (one was, with random seeds:
    // a 2k window, verbose summaries, keep 4 → 101 summary calls per 100 turns, bound 100).
    await fc.assert(fc.asyncProperty(treeRuns, checkTreeRun), { numRuns: 60, seed: 20261127 });
  }, 1_200_000);
});
