// The engine against the outside model (tests/support/outside-model), per window:
// summary calls per 100 turns, summary blocks per request, requests over the window,
// and how many plain-sentence facts (no FACT lines, preserveFactLines off) are still in
// front of the model after 200 turns, by how deep they are compacted — with the
// engine's carry-over of specifics on (the default) and off — and the shape of the
// summary tree: the highest level, how often each planted fact was summarized, and the
// share of prompt tokens a provider's prefix cache could serve.
import { problemsOf } from "../tests/support/matrix";
import { simulate, type Scenario, type SimResult } from "../tests/support/simulation";
import { appendResults, fmt, printTable, runMain, type Table } from "./lib/common";

// BENCH_WINDOWS / BENCH_CARRY_OFF=0 shrink the run on a busy machine (the results say which windows ran).
const WINDOWS = process.env.BENCH_WINDOWS ? process.env.BENCH_WINDOWS.split(",").map(Number) : [4096, 8192, 16_384, 32_768, 131_072];
const CARRY_OFF = process.env.BENCH_CARRY_OFF !== "0";
const SIZES = ["short", "long", "mixed"] as const;
const SUMMARIZERS: Record<string, Scenario["summarizer"]> = {
  extractive: { mode: "extractive" },
  terse: { mode: "terse" },
  verbose: { mode: "verbose" },
  cut: { mode: "cut" },
  "drops facts": { mode: "drop_facts" },
  "30% failing": { mode: "extractive", failRate: 0.3 },
  "lossy (drops 10% a pass)": { mode: "lossy" },
};
const TURNS = Number(process.env.BENCH_TURNS ?? 200);

const medianOf = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : 0;
};
const pct = (visible: number, planted: number) => (planted ? `${Math.round((100 * visible) / planted)}%` : "–");
const depthCell = (result: SimResult, depth: string) => {
  const row = result.retention.byDepth[depth];
  return row ? `${row.visible}/${row.planted}` : "–";
};

async function main() {
  const rows: (string | number)[][] = [];
  type Depths = Record<string, { planted: number; visible: number }>;
  type Entry = { calls: number[]; blocks: number[]; over: number; problems: number; visible: number; planted: number; depths: Depths; levels: number[]; passes: number[]; cached: number[] };
  const perWindow = new Map<number, Entry>();
  for (const window of WINDOWS) {
    for (const size of SIZES) {
      for (const [name, summarizer] of Object.entries(SUMMARIZERS)) {
        for (const carryDetails of [true, false]) {
          if (!carryDetails && (name === "30% failing" || !CARRY_OFF)) continue;
          const result = await simulate({ window, size, summarizer, turns: window >= 131_072 ? Math.max(TURNS, 300) : TURNS, factEvery: 5, settings: { carryDetails } });
          const problems = problemsOf(result);
          rows.push([
            window,
            size,
            name,
            carryDetails ? "on" : "off",
            fmt(result.summaryCallsPer100Turns, 0),
            result.maxSummaryBlocks,
            fmt(result.maxRequestShare * 100, 0) + "%",
            result.made.truncations,
            `${result.retention.visible}/${result.retention.planted} (${pct(result.retention.visible, result.retention.planted)})`,
            depthCell(result, "0"),
            depthCell(result, "1"),
            depthCell(result, "2"),
            depthCell(result, "3+"),
            result.highestLevel,
            `${result.passes.median} / ${result.passes.max}`,
            `${fmt(result.cachedShare * 100, 1)}%`,
            problems.length === 0 ? "kept" : `**${problems.length} broken**: ${problems[0]}`,
          ]);
          if (carryDetails) {
            const entry: Entry = perWindow.get(window) ?? { calls: [], blocks: [], over: 0, problems: 0, visible: 0, planted: 0, depths: {}, levels: [], passes: [], cached: [] };
            entry.levels.push(result.highestLevel);
            entry.passes.push(...result.passes.perFact);
            entry.cached.push(result.cachedShare);
            entry.calls.push(result.summaryCallsPer100Turns);
            entry.blocks.push(result.maxSummaryBlocks);
            entry.over += result.overWindow;
            entry.problems += problems.length;
            if (!summarizer.failRate) {
              entry.visible += result.retention.visible;
              entry.planted += result.retention.planted;
              for (const [depth, row] of Object.entries(result.retention.byDepth)) {
                entry.depths[depth] ??= { planted: 0, visible: 0 };
                entry.depths[depth].planted += row.planted;
                entry.depths[depth].visible += row.visible;
              }
            }
            perWindow.set(window, entry);
          }
          console.log(`${window} ${size} ${name} carry=${carryDetails}: calls/100 ${fmt(result.summaryCallsPer100Turns, 0)}, facts ${result.retention.visible}/${result.retention.planted}, problems ${problems.length}`);
        }
      }
    }
  }
  const detail: Table = {
    headers: [
      "window",
      "messages",
      "summarizer",
      "carry specifics",
      "summary calls / 100 turns",
      "max blocks / request",
      "largest request (server count)",
      "truncations",
      "facts visible at the end",
      "depth 0",
      "depth 1",
      "depth 2",
      "depth 3+",
      "highest level",
      "passes per fact (median / max)",
      "cached share",
      "invariants",
    ],
    rows,
  };
  const summary: Table = {
    headers: [
      "window",
      "summary calls / 100 turns (median, max)",
      "max blocks / request",
      "requests over the window",
      "facts visible (working summarizers, carry on)",
      "depth 0",
      "depth 1",
      "depth 2",
      "depth 3+",
      "highest level (max)",
      "passes per planted fact (median / max)",
      "cached share (median)",
      "broken invariants",
    ],
    rows: [...perWindow].map(([window, entry]) => {
      const sorted = [...entry.calls].sort((a, b) => a - b);
      return [
        window,
        `${fmt(sorted[Math.floor(sorted.length / 2)]!, 0)}, ${fmt(sorted.at(-1)!, 0)}`,
        Math.max(...entry.blocks),
        entry.over,
        `${entry.visible}/${entry.planted} (${pct(entry.visible, entry.planted)})`,
        ...["0", "1", "2", "3+"].map((depth) => {
          const row = entry.depths[depth];
          return row ? `${row.visible}/${row.planted} (${pct(row.visible, row.planted)})` : "–";
        }),
        Math.max(...entry.levels),
        `${medianOf(entry.passes)} / ${Math.max(0, ...entry.passes)}`,
        `${fmt(medianOf(entry.cached) * 100, 1)}%`,
        entry.problems,
      ];
    }),
  };
  printTable("Per window", summary);
  appendResults("Engine matrix against the outside model", {
    intro:
      `\`npx tsx bench/engine-matrix.ts\`: the real engine, in memory, ${TURNS} turns (300 at 128k) per row against the outside model's rules, windows ${WINDOWS.join(", ")}${CARRY_OFF ? "" : ", carry-over of specifics on only"} ` +
      "(its own token count decides whether a request fits; its own summaries). Facts are plain sentences planted every fifth turn " +
      "(\"Project Falcon-3 uses port 4021 in production.\"), FACT lines are off (`preserveFactLines: false`); a fact counts as visible " +
      "when its sentence is in the last request; retention by depth counts, per window, the facts covered at that depth and how many of them were visible. Depth is the level of the compaction that covers the fact's message at the end (0: still a message). " +
      "Messages: short ≈ 40–230 tokens a turn, long ≈ 500–1,200, mixed adds a 5,000-token tool result every twelfth turn. " +
      "Invariants (tests/support/matrix.ts): no request over the window by the server's count, no truncation while summaries succeed " +
      "unless the protected part alone does not fit, every fact in an active summary in the request, every original kept, " +
      "at most 11 summary blocks in view, at most one summary call per tenth of the window the conversation adds (twice that for failing summarizers), " +
      "highest level ≤ ⌈log₄(messages ÷ keepRecentCount)⌉ + 2 and no fact summarized more often than that. Highest level: of any summary written; passes per fact: " +
      "summaries written over the fact's message; cached share: prompt tokens a provider's prefix cache could serve (the outside model's count, OpenAI's rule: " +
      "the prefix shared with the previous request, from 1,024 tokens on, in 128-token steps).",
    tables: [
      { caption: "Per window (carry specifics on, every size and summarizer)", table: summary },
      { caption: "Every run", table: detail },
    ],
  });
  return [...perWindow.values()].every((entry) => entry.problems === 0 && entry.over === 0);
}

runMain(main);
