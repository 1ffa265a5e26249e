// Token economy and retention against the alternatives a user would pick, on the same
// 1,000-turn conversation and the same outside model: prompt tokens sent, what
// compression itself cost, summary calls, and how many plain-sentence facts (no FACT
// lines; preserveFactLines off) the model still sees at the end. With recall (BENCH_RECALL
// unset or 1): the same shape of conversation through the real turn (lib/chat, PostgreSQL)
// against the outside model over HTTP, each fact then asked for.
import "./lib/env";
import { contextBudget } from "../lib/compression/budget";
import { DEFAULT_SETTINGS } from "../lib/compression/settings";
import { rollingSummary, sendEverything, slidingWindow, type EconomyResult } from "./lib/baselines";
import { scriptOf, simulate, type Scenario } from "../tests/support/simulation";
import { execSync } from "node:child_process";
import { fmt, fmtInt, printTable, resetDatabase, runMain, type Table, type Verdict, verdictTable, writeResults } from "./lib/common";
import { benchUser } from "./lib/user";
import { getDb } from "../lib/db/client";
import type { RecallMode } from "../lib/compression/settings";
import type { ChatMode } from "../tests/support/outside-model/behaviour";
import { startOutsideModel } from "../tests/support/outside-model/server";
import { recallRun } from "../tests/support/recall-run";

const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
// BENCH_WINDOWS shrinks the run on a busy machine (the results say which windows ran).
const WINDOWS = process.env.BENCH_WINDOWS ? process.env.BENCH_WINDOWS.split(",").map(Number) : [8192, 32_768, 131_072];

const WITH_RECALL = process.env.BENCH_RECALL !== "0";

/** The real-turn runs: the same conversation shape, recall off (the baseline for "answered") and on. */
const RECALL_RUNS: { name: string; chatMode: ChatMode; recallMode: RecallMode }[] = [
  { name: "Strata, real turn, recall off", chatMode: "ignore", recallMode: "off" },
  { name: "Strata with recall: automatic (model ignores tools)", chatMode: "ignore", recallMode: "automatic" },
  { name: "Strata with recall: tools (model searches)", chatMode: "search", recallMode: "tools" },
];

type RecallRow = EconomyResult & { recallTokens: number; answered: boolean };

async function recallRows(window: number): Promise<RecallRow[]> {
  if (!WITH_RECALL) return [];
  const db = await getDb();
  const user = await benchUser();
  const outside = await startOutsideModel({ seed: 3 });
  process.env.OPENAI_BASE_URL = outside.url;
  try {
    const rows: RecallRow[] = [];
    for (const run of RECALL_RUNS) {
      const result = await recallRun(db, user, outside, {
        window,
        turns: TURNS,
        facts: Math.floor(TURNS / 10),
        chatMode: run.chatMode,
        summaryMode: "extractive",
        userTokens: 100,
        replyTokens: 200,
        settings: { preserveFactLines: false, recallMode: run.recallMode },
        seed: 3,
      });
      rows.push({
        name: run.name,
        requests: result.chatRequests,
        promptTokens: result.promptTokens,
        rejected: result.overWindow,
        summaryCalls: result.summaryCalls,
        summaryCostTokens: result.summaryCostTokens,
        factsVisible: result.answered,
        factsPlanted: result.planted,
        cachedTokens: result.cachedTokens,
        summaryPromptTokens: result.summaryPromptTokens,
        summaryCachedTokens: result.summaryCachedTokens,
        highestLevel: result.highestLevel,
        recallTokens: result.recallTokens,
        answered: true,
      });
    }
    return rows;
  } finally {
    await outside.close();
  }
}

const uptime = () => execSync("uptime").toString().trim().replace(/^.*load average/, "load average");

async function main() {
  const loadBefore = uptime();
  if (WITH_RECALL) await resetDatabase(process.env.DATABASE_URL!);
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
      ...(await recallRows(window)),
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
        `${result.factsVisible}/${result.factsPlanted}${"answered" in result ? " answered" : ""}`,
        result.highestLevel ?? "–",
        result.passes ? `${result.passes.median} / ${result.passes.max}` : "–",
        result.promptTokens ? `${fmt((100 * result.cachedTokens) / result.promptTokens, 1)}%` : "–",
        result.summaryPromptTokens ? `${fmt((100 * result.summaryCachedTokens) / result.summaryPromptTokens, 1)}%` : "–",
        result.promptTokens ? `${fmt((100 * (result.cachedTokens + result.summaryCachedTokens)) / (result.promptTokens + result.summaryPromptTokens), 1)}%` : "–",
        fmtInt(result.promptTokens + result.summaryPromptTokens - result.cachedTokens - result.summaryCachedTokens),
        "recallTokens" in result ? fmtInt((result as RecallRow).recallTokens) : "–",
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
      "recall tokens spent",
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
      "(its summary model is its chat model); the rolling summary's use their own framing. " +
      (WITH_RECALL
        ? "The three \"real turn\" rows run the same shape of conversation (≈100-token messages, ≈200-token replies, a plain-sentence fact every tenth turn, " +
          "the same extractive summarizer, preserveFactLines off, otherwise default settings) through lib/chat's turn and PostgreSQL against the outside model over HTTP " +
          "(tests/support/recall-run.ts), with one more sentence a turn carrying a build number (the run's noise: the facts compete with other specifics for the room summaries and stand-ins have, which the in-memory rows' facts do not), then ask for every fact (`<<recall k1NN>>`, one more turn each, so their requests include those turns); " +
          "their facts column counts the facts the model ANSWERED, not the ones visible. recall tokens spent = the automatic recall blocks in the requests (outside count); " +
          "the tools row's lookups are ordinary tool messages inside its prompt tokens."
        : ""),
    tables: [
      { caption: "Results", table },
      { caption: "Targets (Strata's goal: the retention of the rolling summary or better at ≤ the prompt tokens of the sliding window)", table: verdictTable(verdicts) },
    ],
  });
}

runMain(main);
