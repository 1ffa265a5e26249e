// Summaries cite their sources, checked from outside: the outside model cites the
// labelled messages its sentences came from, and in `wild` mode also numbers that are
// nowhere in what it was sent. After a long run every cite of every summary ever stored
// (merges and folds included) lies inside that summary's range.
import { describe, expect, it } from "vitest";
import { citedNumbers } from "@/lib/compression/citations";
import { problemsOf } from "../../support/matrix";
import { simulate, type SimResult } from "../../support/simulation";

/** Each cited number outside its summary's range, as "L2 #41–#80 cites #93". */
function outOfRange(result: SimResult): string[] {
  return result.summaries.flatMap((s) =>
    citedNumbers(s.summary)
      .filter((seq) => seq < s.fromSeq || seq > s.toSeq)
      .map((seq) => `L${s.level} #${s.fromSeq}–#${s.toSeq} cites #${seq}`),
  );
}

describe("summaries cite their sources (default settings, 400 turns, 8k)", () => {
  it("a summarizer that also cites numbers it never saw: every stored cite lies inside its summary's range", async () => {
    const result = await simulate({ window: 8192, turns: 400, size: "short", summarizer: { mode: "lossy", cite: "wild" }, factEvery: 10, seed: 1 });
    expect(problemsOf(result)).toEqual([]);
    expect(result.overWindow).toBe(0);
    expect(result.truncations).toBe(0);
    // Not vacuous: summaries of messages and merges alike kept cites.
    const cited = result.summaries.filter((s) => citedNumbers(s.summary).length > 0);
    expect(cited.filter((s) => s.level === 1).length).toBeGreaterThan(10);
    expect(cited.filter((s) => s.level >= 2).length).toBeGreaterThan(0);
    expect(outOfRange(result)).toEqual([]);
  }, 120_000);
});
