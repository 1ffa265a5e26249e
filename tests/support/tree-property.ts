// Random long runs of the engine against the outside model, for the summary tree's
// property test (tests/unit/engine/tree.test.ts) and its larger sweep
// (tests/faults/engine-sweep.test.ts).
import fc from "fast-check";
import { expect } from "vitest";
import { heightBound, problemsOf } from "./matrix";
import { simulate } from "./simulation";

export const treeRuns = fc.record({
  window: fc.constantFrom(2048, 3000, 4096, 8192),
  turns: fc.integer({ min: 60, max: 200 }),
  size: fc.constantFrom("short" as const, "medium" as const, "mixed" as const),
  mode: fc.constantFrom("lossy" as const, "extractive" as const, "terse" as const, "verbose" as const, "cut" as const, "mixed" as const, "drop_facts" as const),
  titles: fc.constantFrom("follow" as const, "ignore" as const),
  keepRecentCount: fc.integer({ min: 2, max: 12 }),
  seed: fc.integer({ min: 1, max: 100_000 }),
});

/**
 * One run, checked: no request over the window, every message in view or under exactly
 * one active compaction, every stored compaction reachable from an active one inside
 * its parent (problemsOf), height ≤ ⌈log4(messages ÷ keep)⌉ + 2 and no fact summarized
 * more often than the tree is high.
 */
export async function checkTreeRun(run: typeof treeRuns extends fc.Arbitrary<infer T> ? T : never): Promise<void> {
  const { window, turns, size, mode, titles, keepRecentCount, seed } = run;
  const result = await simulate({ window, turns, size, summarizer: { mode, titles }, factEvery: 5, seed, settings: { keepRecentCount } });
  expect(problemsOf(result)).toEqual([]);
  expect(result.highestLevel).toBeLessThanOrEqual(heightBound(result.messages, keepRecentCount));
  expect(result.passes.max).toBeLessThanOrEqual(result.highestLevel);
}
