// The engine's promise as checkable statements, and the scenarios they are checked on:
// windows from 3k to 128k, short to mixed messages (with 5k-token tool results), every
// kind of summarizer the outside model can play, default and tight settings.
import { MAX_SUMMARY_BLOCKS } from "@/lib/compression/budget";
import { DEFAULT_SETTINGS } from "@/lib/compression/settings";
import type { Scenario, SimResult } from "./simulation";

export type MatrixCase = Scenario & { name: string };

/** The tight configuration the engine issue measured: a 3k-ish window with a small reserve and level budget. */
export const TIGHT = { keepRecentCount: 6, hardLimitReserve: 400, maxSummaryTokensPerLevel: 500 } as const;

const summarizers = {
  terse: { mode: "terse" },
  verbose: { mode: "verbose" },
  cut: { mode: "cut" },
  mixed: { mode: "mixed" },
  foreign: { mode: "foreign" },
  dropping: { mode: "drop_facts" },
  failing: { mode: "extractive", failRate: 0.3 },
  slow: { mode: "extractive", slow: true },
} as const;

function scenario(
  name: string,
  window: number,
  size: Scenario["size"],
  summarizer: keyof typeof summarizers,
  turns: number,
  extra: Partial<Scenario> = {},
): MatrixCase {
  // Below the settings minimum on purpose: a slow model costs the simulation real time.
  const slow = summarizer === "slow" ? { summaryTimeoutMs: 100 } : {};
  return {
    name,
    window,
    size,
    turns,
    summarizer: summarizers[summarizer],
    factEvery: 4,
    ...extra,
    settings: { ...slow, ...extra.settings },
  };
}

/** Fast enough for `npm test`: one run per row, each a different corner. */
export function quickMatrix(): MatrixCase[] {
  return [
    scenario("4k short, terse", 4096, "short", "terse", 80),
    scenario("4k mixed, verbose", 4096, "mixed", "verbose", 60),
    scenario("8k short, cut, usage sometimes missing", 8192, "short", "cut", 100, { usage: "random" }),
    scenario("8k long, terse", 8192, "long", "terse", 80),
    scenario("8k mixed, 30% failing", 8192, "mixed", "failing", 80),
    scenario("8k medium, slow", 8192, "medium", "slow", 30),
    scenario("16k long, verbose, no usage ever", 16_384, "long", "verbose", 80, { usage: "never" }),
    scenario("16k mixed, mixed summarizer", 16_384, "mixed", "mixed", 80),
    scenario("32k long, dropping facts", 32_768, "long", "dropping", 100),
    scenario("128k long, terse", 131_072, "long", "terse", 160),
    scenario("3k medium, tight, terse", 3000, "medium", "terse", 100, { settings: TIGHT }),
    scenario("4k mixed, tight, failing", 4096, "mixed", "failing", 60, { settings: TIGHT }),
    scenario("8k long, count mode", 8192, "long", "terse", 80, { settings: { triggerMode: "count" } }),
    scenario("8k short, sliding window", 8192, "short", "verbose", 100, { settings: { triggerMode: "sliding_window" } }),
    scenario("8k medium, structured answered in prose", 8192, "medium", "terse", 80, { summarizer: { mode: "prose" }, settings: { strategy: "structured" } }),
    scenario("16k short, turn digests", 16_384, "short", "terse", 100, { settings: { strategy: "turn_digest" } }),
    scenario("4k long, simple extract", 4096, "long", "terse", 60, { settings: { strategy: "simple_extract" } }),
    // Its merges are never shorter than what they replace: the summaries in view stay bounded by setting the oldest aside.
    scenario("4k long, foreign summaries", 4096, "long", "foreign", 150),
  ];
}

/** `npm run test:faults`: every window × size × summarizer at defaults, and the tight settings. */
export function fullSweep(): MatrixCase[] {
  const cases: MatrixCase[] = [];
  for (const window of [4096, 8192, 16_384, 32_768, 131_072]) {
    for (const size of ["short", "long", "mixed"] as const) {
      for (const summarizer of ["terse", "verbose", "cut", "failing", "slow", "foreign"] as const) {
        const turns = summarizer === "slow" ? 30 : window >= 131_072 ? 200 : 150;
        cases.push(scenario(`${window} ${size} ${summarizer}`, window, size, summarizer, turns));
        if (window <= 8192 && summarizer !== "slow") cases.push(scenario(`${window} ${size} ${summarizer} tight`, window, size, summarizer, turns, { settings: TIGHT }));
      }
    }
  }
  return cases;
}

/**
 * At most one summary call for every tenth of the window the conversation adds: each
 * call must buy a useful amount of room. (A 5k-token tool result in a 4k window buys
 * several.)
 */
export function callBound(result: SimResult): number {
  const bound = Math.ceil((100 * result.tokensPerTurn) / (result.scenario.window * 0.1)) + 10;
  // A failed call is tried again (once more within a pass over the hard limit, and at the next turn).
  const failing = result.scenario.summarizer.failRate || result.scenario.summarizer.slow;
  return failing ? 2 * bound : bound;
}

/** The height the summary tree may reach over `messages` messages: ⌈log₄(messages ÷ keepRecentCount)⌉ + 2. */
export function heightBound(messages: number, keepRecentCount: number): number {
  return Math.ceil(Math.log(Math.max(1, messages) / Math.max(1, keepRecentCount)) / Math.log(4) - 1e-9) + 2;
}

/** What must hold for every run; an empty list means the promise was kept. */
export function problemsOf(result: SimResult): string[] {
  const problems = result.violations.map((v) => `turn ${v.turn}: ${v.kind}: ${v.detail}`);
  if (result.overWindow > 0) problems.push(`${result.overWindow} requests over the window by the server's count`);
  if (result.maxSummaryBlocks > MAX_SUMMARY_BLOCKS + 1) problems.push(`${result.maxSummaryBlocks} summary blocks in one request`);
  // A tree, not a chain: its height grows with the log of the conversation, and a fact is
  // summarized again at most once per level it climbs.
  const height = heightBound(result.messages, result.scenario.settings?.keepRecentCount ?? DEFAULT_SETTINGS.keepRecentCount);
  if (result.highestLevel > height) problems.push(`level ${result.highestLevel} reached (bound ${height} for ${result.messages} messages)`);
  // A cut stands one level above what it takes and absorbs the cut before it: one level more at most.
  if (result.highestRecordLevel > height + 1) problems.push(`a record at level ${result.highestRecordLevel} (bound ${height + 1} for ${result.messages} messages, a cut included)`);
  if (result.passes.max > result.highestLevel) problems.push(`a planted fact was summarized ${result.passes.max} times, more than the tree's height ${result.highestLevel}`);
  const bound = callBound(result);
  // Turn digests make one call per turn of a range by design; what is bounded is how often a range is compacted.
  const digests = result.scenario.settings?.strategy === "turn_digest";
  const made = result.made.summaries + result.made.merges;
  const per100 = digests ? (made / result.turns) * 100 : result.summaryCallsPer100Turns;
  if (per100 > bound) problems.push(`${per100.toFixed(0)} ${digests ? "compactions" : "summary calls"} per 100 turns (bound ${bound})`);
  return problems;
}
