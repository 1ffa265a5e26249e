// Benchmark 3 — a 1,000-turn scripted conversation through the real chat loop
// (ops.startTurn → runTurn) over real PostgreSQL and the project's test server (zero
// latency), with a small context window so compaction runs all along.
//
// Planted facts: some user messages carry a `FACT key=value` line; the last turns ask
// `RECALL key?` for every planted key. Measures prompt tokens per turn (chart in
// docs/long-conversation-tokens.svg), cumulative prompt tokens vs the no-compression
// and hard-truncation baselines (computed analytically from the same stored
// messages), requests above the threshold / hard limit (from the test server's
// recorded requests, counted with countRequestTokens), the fraction of facts recalled,
// and compactions per level.
//
//   npx tsx bench/long-conversation.ts [--turns 1000] [--window 6000]
import "./lib/env";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { appendResults, fmt, fmtInt, median, printTable, resetDatabase, ROOT, runMain, seededRandom, verdictTable, type Verdict } from "./lib/common";
import { lineChart } from "./lib/svg";
import { startTestServer, type RecordedRequest } from "../tests/support/test-model";
import { getDb } from "../lib/db/client";
import { writeUserSettings } from "../lib/db/settings";
import { benchUser } from "./lib/user";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../lib/compression/settings";
import { backgroundSettled } from "../lib/chat/compressor";
import * as ops from "../lib/chat/operations";
import { countMessageTokens, countRequestTokens } from "../lib/llm/tokens";
import type { ChatMessage } from "../lib/compression/types";

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const TURNS = arg("turns", 1000);
const WINDOW = arg("window", 6000);
const MODEL = "gpt-4o-mini";
const SYSTEM_PROMPT = "You are a helpful assistant. Keep answers short.";
const KEYS_PER_RECALL = 5;

const settings: CompressionSettings = {
  ...DEFAULT_SETTINGS,
  contextWindowOverrides: { [MODEL]: WINDOW },
  // Proportional to the small window: the defaults (4,096 reserve, 3,000 tokens of
  // summaries per level) are sized for 128k windows.
  hardLimitReserve: Math.round(WINDOW / 6),
  maxSummaryTokensPerLevel: Math.round(WINDOW / 6),
  summaryMaxTokens: 400,
};
const THRESHOLD_TOKENS = settings.threshold * WINDOW;
const HARD_LIMIT = WINDOW - settings.hardLimitReserve;

type Planned = { turn: number; content: string; factKey?: string; factValue?: string; recallKeys?: string[] };

function script(turns: number): Planned[] {
  const random = seededRandom(2024);
  const words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa".split(" ");
  const pick = () => words[Math.floor(random() * words.length)]!;
  const plan: Planned[] = [];
  const facts: { key: string; value: string }[] = [];
  // Facts every 19 turns up to shortly before the end; then enough RECALL turns to ask
  // for every one of them, so the conversation has exactly `turns` turns.
  const lastFactTurn = turns - Math.ceil(turns / 50) - 5;
  let factCount = 0;
  for (let turn = 1; turn <= lastFactTurn; turn++) if (turn % 19 === 7) factCount++;
  const recallTurns = Math.max(1, Math.ceil(factCount / KEYS_PER_RECALL));
  for (let turn = 1; turn <= turns - recallTurns; turn++) {
    const replyWords = 20 + Math.floor(random() * 70);
    const chatter = `Turn ${turn}: let us talk about ${pick()} ${pick()} and ${pick()} for a while. REPLY_WORDS=${replyWords}`;
    if (turn % 19 === 7 && turn <= lastFactTurn) {
      const key = `k${facts.length + 1}_${pick()}`;
      const value = `${pick()}-${Math.floor(random() * 9000) + 1000}`;
      facts.push({ key, value });
      plan.push({ turn, content: `Please remember this for later.\nFACT ${key}=${value}\n${chatter}`, factKey: key, factValue: value });
    } else {
      plan.push({ turn, content: chatter });
    }
  }
  for (let r = 0; r < recallTurns; r++) {
    const keys = facts.slice(r * KEYS_PER_RECALL, (r + 1) * KEYS_PER_RECALL).map((f) => f.key);
    if (keys.length === 0) break;
    plan.push({ turn: plan.length + 1, content: `Quick check: ${keys.map((k) => `RECALL ${k}?`).join(" ")}`, recallKeys: keys });
  }
  return plan;
}

function messagesOf(request: RecordedRequest): ChatMessage[] {
  return ((request.body as { messages?: ChatMessage[] }).messages ?? []) as ChatMessage[];
}

async function main() {
  await resetDatabase(process.env.DATABASE_URL!);
  const server = await startTestServer({ chatLatencyMs: 0, summaryLatencyMs: 0, tokensPerChunk: 50 });
  process.env.OPENAI_BASE_URL = server.url;
  const db = await getDb();
  const user = await benchUser();
  await writeUserSettings(db, user.id, settings);
  const conversation = await ops.createConversation(user, { title: "1,000 turns", model: MODEL, systemPrompt: SYSTEM_PROMPT });
  const plan = script(TURNS);
  const planted = new Map(plan.filter((p) => p.factKey).map((p) => [p.factKey!, p.factValue!]));

  type TurnStat = { turn: number; promptTokens: number; promptWithTools: number; summaryPromptTokens: number; chatRequests: number; ms: number; userSeq: number };
  const stats: TurnStat[] = [];
  const recallAnswers = new Map<string, string>();
  let errors = 0;
  let aboveThreshold = 0;
  let aboveHardLimit = 0;
  let maxPrompt = 0;
  const started = performance.now();
  for (const step of plan) {
    const before = server.requests.length;
    const turnStarted = performance.now();
    let userSeq = 0;
    let reply = "";
    for await (const event of await ops.startTurn(user, { conversationId: conversation.id, content: step.content })) {
      if (event.type === "error") errors++;
      if (event.type === "message" && event.message.role === "user") userSeq = event.message.seq;
      if (event.type === "message" && event.message.role === "assistant") reply = event.message.content;
    }
    const ms = performance.now() - turnStarted;
    await backgroundSettled(conversation.id);
    const recorded = server.requests.slice(before);
    const chat = recorded.filter((r) => r.kind === "chat");
    const summaries = recorded.filter((r) => r.kind === "summary");
    let promptTokens = 0;
    let promptWithTools = 0;
    for (const request of chat) {
      const tokens = countRequestTokens(messagesOf(request));
      const withTools = countRequestTokens(messagesOf(request), MODEL, (request.body as { tools?: never[] }).tools);
      promptTokens += tokens;
      promptWithTools += withTools;
      maxPrompt = Math.max(maxPrompt, tokens);
      if (tokens > THRESHOLD_TOKENS) aboveThreshold++;
      if (withTools > HARD_LIMIT) aboveHardLimit++;
    }
    const summaryPromptTokens = summaries.reduce((sum, r) => sum + countRequestTokens(messagesOf(r)), 0);
    stats.push({ turn: step.turn, promptTokens, promptWithTools, summaryPromptTokens, chatRequests: chat.length, ms, userSeq });
    if (step.recallKeys) {
      for (const line of reply.split("\n")) {
        const [key, value] = line.split("=");
        if (key && value) recallAnswers.set(key.trim(), value.trim());
      }
    }
    // Keep memory flat: the bodies were counted.
    if (server.requests.length > 200) server.requests.splice(0, server.requests.length);
    if (step.turn % 100 === 0) console.log(`turn ${step.turn}: ${fmt((performance.now() - started) / 1000, 1)} s, last prompt ${promptTokens} tokens`);
  }
  const totalSeconds = (performance.now() - started) / 1000;

  // ---- analytic baselines from the stored messages ----
  const rows = await db.message.findMany({ where: { conversationId: conversation.id, rewoundAt: null, status: { not: "error" } }, orderBy: { seq: "asc" } });
  const systemTokens = countMessageTokens({ role: "system", content: SYSTEM_PROMPT });
  const fixed = 3 + systemTokens; // reply priming + system prompt
  const prefix: number[] = [0];
  for (const row of rows) prefix.push(prefix.at(-1)! + row.tokenCount);
  const indexOfSeq = new Map(rows.map((row, index) => [row.seq, index]));
  const factSeq = new Map<string, number>();
  for (const row of rows) {
    const match = /FACT (\S+)=/.exec(row.content);
    if (row.role === "user" && match) factSeq.set(match[1]!, row.seq);
  }
  let cumActual = 0;
  let cumActualWithSummaries = 0;
  let cumFull = 0;
  let cumTrunc = 0;
  let fullAboveWindow = 0;
  const perTurn: { turn: number; actual: number; full: number; trunc: number }[] = [];
  const cumulative: { turn: number; actual: number; actualAll: number; full: number; trunc: number }[] = [];
  let truncRecalled = 0;
  let truncAsked = 0;
  for (const [i, stat] of stats.entries()) {
    const end = indexOfSeq.get(stat.userSeq)! + 1; // messages up to and including this user message
    const full = fixed + prefix[end]!;
    // Hard truncation: the newest messages that fit under the hard limit.
    let start = end - 1;
    while (start > 0 && fixed + prefix[end]! - prefix[start - 1]! <= HARD_LIMIT) start--;
    const trunc = fixed + prefix[end]! - prefix[start]!;
    if (full > WINDOW) fullAboveWindow++;
    cumActual += stat.promptTokens;
    cumActualWithSummaries += stat.promptTokens + stat.summaryPromptTokens;
    cumFull += full;
    cumTrunc += trunc;
    perTurn.push({ turn: stat.turn, actual: stat.promptTokens, full, trunc });
    cumulative.push({ turn: stat.turn, actual: cumActual, actualAll: cumActualWithSummaries, full: cumFull, trunc: cumTrunc });
    const step = plan[i]!;
    if (step.recallKeys) {
      const firstKept = rows[start]!.seq;
      for (const key of step.recallKeys) {
        truncAsked++;
        if ((factSeq.get(key) ?? 0) >= firstKept) truncRecalled++;
      }
    }
  }
  const recalled = [...planted].filter(([key, value]) => recallAnswers.get(key) === value).length;
  const recallFraction = planted.size ? recalled / planted.size : 0;

  const levelRows = await db.$queryRaw<{ level: number; kind: string; total: bigint; active: bigint }[]>`
    SELECT level, kind::text AS kind, count(*) AS total,
           count(*) FILTER (WHERE "supersededById" IS NULL AND "undoneAt" IS NULL) AS active
    FROM "Compaction" WHERE "conversationId" = ${conversation.id} GROUP BY level, kind ORDER BY kind, level`;
  const attemptRows = await db.$queryRaw<{ outcome: string; background: boolean; n: bigint }[]>`
    SELECT outcome::text AS outcome, background, count(*) AS n FROM "CompactionAttempt"
    WHERE "conversationId" = ${conversation.id} GROUP BY outcome, background ORDER BY outcome, background`;

  // ---- chart ----
  const chartFile = path.join(ROOT, "docs", "long-conversation-tokens.svg");
  writeFileSync(
    chartFile,
    lineChart(
      [
        { name: "Strata (measured)", color: "#1f6feb", points: perTurn.map((p) => [p.turn, p.actual]) },
        { name: "hard truncation (analytic)", color: "#d97706", points: perTurn.map((p) => [p.turn, p.trunc]), dashed: true },
        { name: "no compression (analytic, clipped)", color: "#b91c1c", points: perTurn.map((p) => [p.turn, p.full]), dashed: true },
      ],
      {
        title: `Prompt tokens per turn — ${fmtInt(TURNS)} turns, ${fmtInt(WINDOW)}-token window`,
        xLabel: "turn",
        yLabel: "prompt tokens (messages)",
        yMax: WINDOW * 1.15,
        rules: [
          { y: WINDOW, label: `window ${fmtInt(WINDOW)}`, color: "#6b7280" },
          { y: HARD_LIMIT, label: `hard limit ${fmtInt(HARD_LIMIT)}`, color: "#b91c1c" },
          { y: THRESHOLD_TOKENS, label: `threshold ${fmtInt(THRESHOLD_TOKENS)}`, color: "#059669" },
        ],
      },
    ),
  );
  const cumulativeFile = path.join(ROOT, "docs", "long-conversation-cumulative.svg");
  writeFileSync(
    cumulativeFile,
    lineChart(
      [
        { name: "Strata chat calls", color: "#1f6feb", points: cumulative.map((p) => [p.turn, p.actual]) },
        { name: "Strata chat + summary calls", color: "#7c3aed", points: cumulative.map((p) => [p.turn, p.actualAll]) },
        { name: "hard truncation", color: "#d97706", points: cumulative.map((p) => [p.turn, p.trunc]), dashed: true },
        { name: "no compression", color: "#b91c1c", points: cumulative.map((p) => [p.turn, p.full]), dashed: true },
      ],
      { title: "Cumulative prompt tokens", xLabel: "turn", yLabel: "cumulative prompt tokens", logY: true },
    ),
  );

  const summaryTotal = stats.reduce((sum, s) => sum + s.summaryPromptTokens, 0);
  const table = {
    headers: ["measure", "Strata", "hard truncation (analytic)", "no compression (analytic)"],
    rows: [
      ["cumulative prompt tokens, chat calls", fmtInt(cumActual), fmtInt(cumTrunc), fmtInt(cumFull)],
      ["… plus summary-model prompts", fmtInt(cumActual + summaryTotal), "–", "–"],
      ["ratio to no compression", fmt(cumActual / cumFull, 3), fmt(cumTrunc / cumFull, 3), "1"],
      ["median prompt tokens per turn", fmtInt(median(perTurn.map((p) => p.actual))), fmtInt(median(perTurn.map((p) => p.trunc))), fmtInt(median(perTurn.map((p) => p.full)))],
      ["max prompt tokens per turn", fmtInt(maxPrompt), fmtInt(Math.max(...perTurn.map((p) => p.trunc))), fmtInt(Math.max(...perTurn.map((p) => p.full)))],
      [`requests above the threshold (${fmtInt(THRESHOLD_TOKENS)})`, String(aboveThreshold), "–", String(perTurn.filter((p) => p.full > THRESHOLD_TOKENS).length)],
      [`requests above the hard limit incl. tool definitions (${fmtInt(HARD_LIMIT)})`, String(aboveHardLimit), "0 (by construction)", String(perTurn.filter((p) => p.full > HARD_LIMIT).length)],
      ["planted facts recalled at the end", `${recalled}/${planted.size} (${fmt(recallFraction * 100, 1)}%)`, `${truncRecalled}/${truncAsked} (${fmt((truncRecalled / Math.max(1, truncAsked)) * 100, 1)}%)`, `${planted.size}/${planted.size} (but ${fullAboveWindow} requests exceed the window)`],
    ],
  };
  const levels = {
    headers: ["kind", "level", "created", "still active"],
    rows: levelRows.map((r) => [r.kind, String(r.level), String(r.total), String(r.active)]),
  };
  const attempts = {
    headers: ["attempt outcome", "background", "count"],
    rows: attemptRows.map((r) => [r.outcome, String(r.background), String(r.n)]),
  };
  printTable(`${fmtInt(stats.length)} turns in ${fmt(totalSeconds, 0)} s (median ${fmt(median(stats.map((s) => s.ms)), 1)} ms per turn), ${errors} errors`, table);
  printTable("Compactions per level", levels);
  printTable("Compaction attempts", attempts);
  const verdicts: Verdict[] = [
    { target: "requests above the threshold: 0", measured: String(aboveThreshold), met: aboveThreshold === 0 },
    { target: "requests above the hard limit: 0", measured: String(aboveHardLimit), met: aboveHardLimit === 0 },
    { target: "planted facts recalled ≥ 95%", measured: `${fmt(recallFraction * 100, 1)}%`, met: recallFraction >= 0.95 },
    { target: "turn errors: 0", measured: String(errors), met: errors === 0 },
    { target: "runtime ≤ 4 min", measured: `${fmt(totalSeconds, 0)} s`, met: totalSeconds <= 240 },
  ];
  printTable("Targets", verdictTable(verdicts));
  appendResults(`3. ${fmtInt(stats.length)}-turn conversation with planted facts`, {
    intro:
      `${fmtInt(stats.length)} turns through \`ops.startTurn\` → \`runTurn\` (real PostgreSQL, test server at zero latency, waiting for background ` +
      `compaction after each turn). Window ${fmtInt(WINDOW)} tokens (settings.contextWindowOverrides), threshold ${settings.threshold}, pre-emptive ` +
      `${settings.preemptiveThreshold}, hard-limit reserve ${settings.hardLimitReserve}, ${fmtInt(settings.maxSummaryTokensPerLevel)} summary tokens per level, ` +
      `strategy ${settings.strategy}. ${planted.size} facts planted (one every 19 turns), recalled in the last ${plan.filter((p) => p.recallKeys).length} turns ` +
      `(${KEYS_PER_RECALL} keys each). Prompt tokens = countRequestTokens(messages) of each recorded chat request; baselines are computed from the same ` +
      `stored messages: *no compression* sends all history, *hard truncation* the newest messages that fit under the hard limit. ` +
      `Run time ${fmt(totalSeconds, 0)} s, median ${fmt(median(stats.map((s) => s.ms)), 1)} ms per turn.`,
    tables: [
      { table },
      { caption: "Compactions per level (all created; active at the end)", table: levels },
      { caption: "Compaction attempts", table: attempts },
      { caption: "Targets", table: verdictTable(verdicts) },
    ],
    notes: [
      "Charts: [prompt tokens per turn](long-conversation-tokens.svg) · [cumulative prompt tokens (log scale)](long-conversation-cumulative.svg)",
    ],
  });
  await server.close();
}

runMain(main);
