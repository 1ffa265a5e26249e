// Benchmark 4 — user-visible turn latency when a compaction is due: background
// (pre-emptive) compaction vs inline, with the summary model's latency fixed at 2 s.
//
// Three conversations driven round-robin in the same loop (so machine load hits them
// alike), with a 2.5 s user think-time between rounds:
//   background — preemptiveThreshold 0.6 < threshold 0.8: after each reply the chat loop
//                schedules the compaction (scheduleBackgroundCompaction); it runs during
//                the think-time, so the next turn finds it done;
//   inline     — preemptiveThreshold 0: the compaction runs in compressBeforeCall, on
//                the user's path;
//   none       — the same turns with a 128k window: no compaction due (the reference).
// Every turn asks for a ~700-word reply in a 6,000-token window, so a compaction is due
// on most turns of the first two conversations; only turns where one actually happened
// are counted.
//
//   npx tsx bench/compaction-latency.ts [--turns 10]
import "./lib/env";
import { appendResults, fmt, fmtInt, median, p95, printTable, resetDatabase, runMain, verdictTable, type Verdict } from "./lib/common";
import { startTestServer } from "../lib/llm/test-server";
import { getDb } from "../lib/db/client";
import { writeUserSettings } from "../lib/db/settings";
import { benchUser } from "./lib/user";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../lib/compression/settings";
import { backgroundSettled } from "../lib/chat/compressor";
import * as ops from "../lib/chat/operations";

const turnsArg = Number(process.argv[process.argv.indexOf("--turns") + 1]);
const TURNS = process.argv.includes("--turns") && turnsArg > 0 ? turnsArg : 10;
const WARMUP_TURNS = 4;
const THINK_MS = 2500;
const SUMMARY_LATENCY_MS = 2000;
const CHAT_LATENCY_MS = 10;
const SMALL = "gpt-4o-mini"; // overridden to a 4k window
const LARGE = "gpt-4o"; // 128k: nothing due
const SMALL_WINDOW = 6000;
const REPLY_WORDS = 700;

const base: CompressionSettings = {
  ...DEFAULT_SETTINGS,
  contextWindowOverrides: { [SMALL]: SMALL_WINDOW },
  hardLimitReserve: 300,
  keepRecentCount: 4,
  summaryMaxTokens: 200,
  // Compact down to 0.8 × 0.95 = 76% of the window, so each ~1,000-token turn crosses
  // the threshold again (inline) or the pre-emptive level (background).
  compressionTarget: 0.95,
};

type Mode = "background" | "inline" | "none";
type Sample = { firstTokenMs: number; totalMs: number; compactionDue: boolean; inlineCompactions: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  await resetDatabase(process.env.DATABASE_URL!);
  const server = await startTestServer({ chatLatencyMs: CHAT_LATENCY_MS, summaryLatencyMs: SUMMARY_LATENCY_MS, tokensPerChunk: 50 });
  process.env.OPENAI_BASE_URL = server.url;
  const db = await getDb();
  const user = await benchUser();
  // Settings are the user's; the modes differ in preemptiveThreshold, so switch it per turn
  // (settings are read fresh on every turn and by the background job as it starts).
  const settingsFor = (mode: Mode): CompressionSettings => ({ ...base, preemptiveThreshold: mode === "background" ? 0.6 : 0 });
  const conversations: Record<Mode, string> = {
    background: (await ops.createConversation(user, { title: "background", model: SMALL, systemPrompt: "Be brief." })).id,
    inline: (await ops.createConversation(user, { title: "inline", model: SMALL, systemPrompt: "Be brief." })).id,
    none: (await ops.createConversation(user, { title: "none", model: LARGE, systemPrompt: "Be brief." })).id,
  };
  const samples: Record<Mode, Sample[]> = { background: [], inline: [], none: [] };

  const countCompactions = (conversationId: string, background: boolean) =>
    db.compaction.count({ where: { conversationId, background } });

  async function turn(mode: Mode, index: number): Promise<Sample> {
    await writeUserSettings(db, user.id, settingsFor(mode));
    const conversationId = conversations[mode];
    const started = performance.now();
    let firstTokenMs = Number.NaN;
    let inlineCompactions = 0;
    for await (const event of await ops.startTurn(user, { conversationId, content: `Turn ${index}: tell me more. REPLY_WORDS=${REPLY_WORDS}` })) {
      if (event.type === "delta" && Number.isNaN(firstTokenMs)) firstTokenMs = performance.now() - started;
      if (event.type === "compaction") inlineCompactions++;
      if (event.type === "error") throw new Error(`turn failed: ${event.message}`);
    }
    const totalMs = performance.now() - started;
    return { firstTokenMs, totalMs, compactionDue: false, inlineCompactions };
  }

  // Settings are global and a background job reads them as it starts, so the two modes
  // with preemptiveThreshold 0 go first and the background conversation last, right
  // before the think-time during which its job runs.
  const order: Mode[] = ["inline", "none", "background"];
  let backgroundCountAtLastTurn = 0;
  const dueCount = (mode: Mode) => samples[mode].filter((s) => s.compactionDue || mode === "none").length;
  const enough = () => order.every((mode) => dueCount(mode) >= TURNS);
  // Compaction lands a little below its target, so it is not due on EVERY turn: run
  // rounds until each mode has TURNS samples with a compaction due (at most 3×).
  let rounds = 0;
  for (let round = 0; round < WARMUP_TURNS + 3 * TURNS && !(round >= WARMUP_TURNS && enough()); round++) {
    rounds = round + 1 - WARMUP_TURNS;
    const measured = round >= WARMUP_TURNS;
    for (const mode of order) {
      let countBefore = 0;
      if (mode === "background") countBefore = await countCompactions(conversations.background, true);
      const sample = await turn(mode, round);
      if (mode === "background") {
        // Due = the job scheduled after the previous reply created a compaction before this turn.
        sample.compactionDue = countBefore > backgroundCountAtLastTurn && sample.inlineCompactions === 0;
        backgroundCountAtLastTurn = countBefore;
        if (sample.inlineCompactions > 0) console.warn(`round ${round}: background mode compacted inline`);
      } else if (mode === "inline") {
        sample.compactionDue = sample.inlineCompactions > 0;
      }
      if (measured) samples[mode].push(sample);
    }
    // Think-time: the user reads the reply; the background job runs meanwhile.
    await sleep(THINK_MS);
    await backgroundSettled(conversations.background);
    if (measured) console.log(`round ${round - WARMUP_TURNS + 1}: ${order.map((m) => `${m} ${fmt(samples[m].at(-1)?.totalMs ?? 0, 0)} ms`).join(", ")}`);
  }
  const backgroundApplied = await db.compactionAttempt.count({ where: { conversationId: conversations.background, background: true, outcome: "applied" } });
  const inlineInBackground = await db.compaction.count({ where: { conversationId: conversations.background, background: false } });
  const noneCompactions = await db.compaction.count({ where: { conversationId: conversations.none } });

  const rows: (string | number)[][] = [];
  const stat = (mode: Mode, pick: (s: Sample) => number) => {
    const list = (mode === "none" ? samples.none : samples[mode].filter((s) => s.compactionDue)).slice(0, mode === "none" ? undefined : TURNS).map(pick);
    return { p50: median(list), p95: p95(list), n: list.length };
  };
  for (const mode of ["none", "background", "inline"] as const) {
    const total = stat(mode, (s) => s.totalMs);
    const first = stat(mode, (s) => s.firstTokenMs);
    rows.push([
      mode === "none" ? "no compaction due (reference)" : mode === "background" ? "compaction due, background (pre-emptive)" : "compaction due, inline",
      String(total.n),
      fmt(first.p50, 0),
      fmt(first.p95, 0),
      fmt(total.p50, 0),
      fmt(total.p95, 0),
      mode === "none" ? "1.00" : fmt(total.p95 / stat("none", (s) => s.totalMs).p95, 2),
    ]);
  }
  const table = { headers: ["turns", "n", "first token p50 ms", "first token p95 ms", "turn p50 ms", "turn p95 ms", "turn p95 ÷ reference p95"], rows };
  printTable("User-visible turn latency", table);
  const reference = stat("none", (s) => s.totalMs).p95;
  const background = stat("background", (s) => s.totalMs);
  const inline = stat("inline", (s) => s.totalMs);
  const verdicts: Verdict[] = [
    { target: "background: turn p95 within 10% of a turn with no compaction due", measured: `${fmt(background.p95, 0)} vs ${fmt(reference, 0)} ms (${fmt(background.p95 / reference, 2)}×)`, met: background.p95 <= reference * 1.1 },
    { target: `${TURNS} turns with a compaction due in each mode`, measured: `${background.n} background, ${inline.n} inline (in ${rounds} rounds)`, met: background.n === TURNS && inline.n === TURNS },
    { target: "no inline compaction in background mode", measured: String(inlineInBackground), met: inlineInBackground === 0 },
    { target: "no compaction in the reference conversation", measured: String(noneCompactions), met: noneCompactions === 0 },
  ];
  printTable("Targets", verdictTable(verdicts));
  appendResults("4. Turn latency with a compaction due: background vs inline", {
    intro:
      `Summary model latency ${fmtInt(SUMMARY_LATENCY_MS)} ms, chat model ${CHAT_LATENCY_MS} ms per streamed chunk of 50 words (~${REPLY_WORDS}-word replies), ` +
      `${fmtInt(SMALL_WINDOW)}-token window, think-time ${fmtInt(THINK_MS)} ms between rounds, rounds after ${WARMUP_TURNS} warm-up rounds until each mode had ${TURNS} turns with a compaction due (${rounds} rounds; the reference counts all its turns); ` +
      "the three conversations take turns in the same loop (inline, reference, background — the background one last so its job starts with its own settings). *background*: preemptiveThreshold 0.6 (< threshold 0.8), the compaction is " +
      "scheduled after the previous reply; *inline*: preemptiveThreshold 0, the compaction runs before the model call. Turn time = from `ops.startTurn` " +
      `to the \`done\` event. Background jobs applied: ${backgroundApplied}.`,
    tables: [{ table }, { caption: "Targets", table: verdictTable(verdicts) }],
  });
  await server.close();
}

runMain(main);
