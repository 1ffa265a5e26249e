// Token economy and retention against the alternatives a user would pick, on the same
// 1,000-turn conversation and the same outside model: prompt tokens sent, what
// compression itself cost, summary calls, and how many plain-sentence facts (no FACT
// lines; preserveFactLines off) the model still sees at the end.
import { contextBudget } from "../lib/compression/budget";
import { DEFAULT_SETTINGS } from "../lib/compression/settings";
import { rollingSummary, sendEverything, slidingWindow, type EconomyResult } from "./lib/baselines";
import { scriptOf, simulate, type Scenario } from "../tests/support/simulation";
import { execSync } from "node:child_process";
import { fmt, fmtInt, printTable, runMain, type Table, type Verdict, verdictTable, writeResults } from "./lib/common";

const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
// BENCH_WINDOWS shrinks the run on a busy machine (the results say which windows ran).
const WINDOWS = process.env.BENCH_WINDOWS ? process.env.BENCH_WINDOWS.split(",").map(Number) : [8192, 32_768, 131_072];

const uptime = () => execSync("uptime").toString().trim().replace(/^.*load average/, "load average");

async function main() {
  const loadBefore = uptime();
  const started = performance.now();
  const rows: (string | number)[][] = [];
  const verdicts: Verdict[] = [];
  for (const window of WINDOWS) {
    const scenario: Scenario = { window, turns: TURNS, size: "medium", summarizer: { mode: "extractive" }, factEvery: 10, seed: 3 };
    const script = scriptOf(scenario);
    const budget = contextBudget(window, DEFAULT_SETTINGS);
    const strata = await simulate(scenario);
    const results: EconomyResult[] = [
      {
        name: "Strata (defaults)",
        requests: strata.requests,
        promptTokens: strata.promptTokens,
        rejected: strata.overWindow,
        summaryCalls: strata.summaryCalls,
        summaryCostTokens: strata.summaryCostTokens,
        factsVisible: strata.retention.visible,
        factsPlanted: strata.retention.planted,
        cachedTokens: Math.round(strata.cachedShare * strata.promptTokens),
        summaryPromptTokens: strata.summaryPromptTokens,
        summaryCachedTokens: Math.round(strata.summaryCachedShare * strata.summaryPromptTokens),
        highestLevel: strata.highestLevel,
        passes: { median: strata.passes.median, max: strata.passes.max },
      },
      slidingWindow(script, budget.hardLimit),
      rollingSummary(script, { window, threshold: DEFAULT_SETTINGS.threshold, summaryTokens: Math.min(1000, Math.floor(window * 0.25)), mode: "extractive", seed: 3 }),
      sendEverything(script, window),
    ];
    const sliding = results[1]!;
    const rolling = results[2]!;
    for (const result of results) {
      rows.push([
        window,
        result.name,
        fmtInt(result.requests),
        fmtInt(result.rejected),
        fmtInt(result.promptTokens),
        fmt(result.promptTokens / sliding.promptTokens, 2),
        fmtInt(result.summaryCostTokens),
        fmt((result.summaryCalls / TURNS) * 100, 1),
        fmtInt(result.summaryCalls),
        `${result.factsVisible}/${result.factsPlanted}`,
        result.highestLevel ?? "–",
        result.passes ? `${result.passes.median} / ${result.passes.max}` : "–",
        result.promptTokens ? `${fmt((100 * result.cachedTokens) / result.promptTokens, 1)}%` : "–",
        result.summaryPromptTokens ? `${fmt((100 * result.summaryCachedTokens) / result.summaryPromptTokens, 1)}%` : "–",
        result.promptTokens ? `${fmt((100 * (result.cachedTokens + result.summaryCachedTokens)) / (result.promptTokens + result.summaryPromptTokens), 1)}%` : "–",
        fmtInt(result.promptTokens + result.summaryPromptTokens - result.cachedTokens - result.summaryCachedTokens),
      ]);
    }
    verdicts.push({
      target: `${window}: Strata's retention ≥ the rolling summary's`,
      measured: `${strata.retention.visible} vs ${rolling.factsVisible} of ${strata.retention.planted}`,
      met: strata.retention.visible >= rolling.factsVisible,
    });
    verdicts.push({
      target: `${window}: Strata's prompt tokens ≤ the sliding window's`,
      measured: `${fmt(strata.promptTokens / sliding.promptTokens, 2)}× (${fmtInt(strata.promptTokens)} vs ${fmtInt(sliding.promptTokens)})`,
      met: strata.promptTokens <= sliding.promptTokens,
      note: "Strata sends summaries instead of as many old messages as fit, and compacts to well under the threshold",
    });
    verdicts.push({
      target: `${window}: Strata's prompt + summary tokens ≤ the sliding window's`,
      measured: `${fmt((strata.promptTokens + strata.summaryCostTokens) / sliding.promptTokens, 2)}×`,
      met: strata.promptTokens + strata.summaryCostTokens <= sliding.promptTokens,
    });
  }
  const table: Table = {
    headers: [
      "window",
      "approach",
      "requests sent",
      "requests refused by the server",
      "prompt tokens (server count)",
      "÷ sliding window",
      "summary tokens spent",
      "summary calls / 100 turns",
      "summary calls",
      "facts visible at the end",
      "highest level",
      "passes per planted fact (median / max)",
      "cached share (chat requests)",
      "cached share (summary requests)",
      "cached share (all prompt tokens)",
      "prompt tokens not cached (all)",
    ],
    rows,
  };
  printTable("Token economy", table);
  printTable("Targets", verdictTable(verdicts));
  const minutes = (performance.now() - started) / 60_000;
  // On a shared machine the wall time says more about the neighbours than about this benchmark.
  const cpuMinutes = (process.cpuUsage().user + process.cpuUsage().system) / 60e6;
  writeResults("token-economy", "Token economy and retention against the alternatives", {
    command: "npx tsx bench/token-economy.ts",
    load: `${loadBefore} at the start; ${uptime()} at the end; ran in ${fmt(minutes, 1)} min (${fmt(cpuMinutes, 1)} min of CPU)`,
    intro:
      `\`npx tsx bench/token-economy.ts\`: one scripted conversation of ${fmtInt(TURNS)} turns at windows ${WINDOWS.join(", ")} (≈300 tokens a turn, a plain-sentence fact every tenth turn, ` +
      "no FACT lines, `preserveFactLines` off) run four ways against the outside model's rules (tests/support/outside-model: its own token count, " +
      "an extractive summarizer that keeps sentences with names and numbers). Strata runs its real engine (lib/compression with the app's tiktoken counter, default settings) in memory through " +
      "tests/support/simulation.ts — lib/chat/turn.ts's loop (process, buildRequest, reply, background process) without database or HTTP, the outside " +
      "model's summarizer called in process by the same rules its HTTP server applies; " +
      "the sliding window keeps the newest messages under the same hard limit; the rolling summary re-summarizes everything but the current turn " +
      "at 80% of the window (one summary, ≤ 1,000 tokens or a quarter of the window); send-everything sends the whole history and is refused past the window. " +
      "Summary tokens spent = prompt + completion of the summary calls. Highest level: of any summary written (the rolling summary's chain counts one level per rewrite); " +
      "passes per planted fact: how many summaries were written over the fact's message; cached share: prompt tokens a provider's prefix cache could serve " +
      "(the outside model's count of the longest prefix a request shares with the newest chat request or the newest summary request before it, from 1,024 tokens on, " +
      "in 128-token steps, OpenAI's rule), of the chat requests, of the summary requests and of both together. Strata's summary requests reuse the chat request's prefix " +
      "(its summary model is its chat model); the rolling summary's use their own framing.",
    tables: [
      { caption: "Results", table },
      { caption: "Targets (Strata's goal: the retention of the rolling summary or better at ≤ the prompt tokens of the sliding window)", table: verdictTable(verdicts) },
    ],
  });
}

runMain(main);
