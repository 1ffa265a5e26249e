// The larger sweep of the engine matrix: every window × message size × summarizer at
// default settings, and the tight settings on small windows.
import { describe, expect, it } from "vitest";
import { fullSweep, problemsOf } from "../support/matrix";
import { simulate } from "../support/simulation";

describe("engine sweep against the outside model", () => {
  for (const scenario of fullSweep()) {
    it(scenario.name, async () => {
      expect(problemsOf(await simulate(scenario))).toEqual([]);
    }, 120_000);
  }
});
