// Turn latency while a compaction is due, with turns sent back to back (no think-time):
// does a pre-emptive (background) compaction stay off the user's path when the user
// does not wait for it?
//
//   npx tsx bench/compaction-latency.ts      (BENCH_ROUNDS=45, BENCH_MODEL_PORT=4452)
//
// The outside model server (tests/support/outside-model) writes summaries in 2 s and
// answers chat at once. Three conversations take turns in one loop, so machine load
// hits them alike, each sending its next turn as soon as its previous one is done:
//   background — pre-emptive compaction on (preemptiveThreshold 0.6 < threshold 0.8)
//                in a 6,000-token window: after a reply past 60% the chat loop starts a
//                compaction off the user's path;
//   inline     — another user with preemptiveThreshold 0: the compaction runs before
//                the model call, on the user's path (the contrast);
//   reference  — the first user's settings on a 128k-window model: nothing is ever due.
// A background turn counts as *during* a due compaction when the background job
// scheduled after the previous turn found one due (a background attempt was recorded
// by the end of this turn), and *right after* for the turn that follows.
// Turns run in process through lib/chat/operations (the code the route handler calls),
// from startTurn to the `done` event.
import "./lib/env";
import { execSync } from "node:child_process";
import { fmt, fmtInt, median, p95, printTable, resetDatabase, runMain, verdictTable, writeResults, type Verdict } from "./lib/common";
import { startOutsideModel } from "../tests/support/outside-model/server";
import { chatter } from "../tests/support/simulation";
import { seededRandom } from "../lib/random";
import { getDb } from "../lib/db/client";
import { writeUserSettings } from "../lib/db/settings";
import { benchUser } from "./lib/user";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../lib/compression/settings";
import { backgroundSettled } from "../lib/chat/compressor";
import * as ops from "../lib/chat/operations";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 45);
const WARMUP = 3;
const MODEL_PORT = Number(process.env.BENCH_MODEL_PORT ?? 4452);
const SUMMARY_LATENCY_MS = 2000;
const SMALL = "gpt-4o-mini"; // overridden to a 6,000-token window
const LARGE = "gpt-4o"; // 128k: nothing due
const SMALL_WINDOW = 6000;
const REPLY_TOKENS = 250;

const base: CompressionSettings = {
  ...DEFAULT_SETTINGS,
  contextWindowOverrides: { [SMALL]: SMALL_WINDOW },
  hardLimitReserve: 300,
  keepRecentCount: 4,
  summaryMaxTokens: 200,
};

type Mode = "background" | "inline" | "reference";
// awaited: the turn's request was over the hard limit while the background summary was
// being written, so it waited for that summary (the turn says so with an
// "awaiting_compaction" status event).
type Sample = { ms: number; round: number; inlineCompactions: number; backgroundAttempts: number; awaited: boolean };

const uptime = () => execSync("uptime").toString().trim().replace(/^.*load average/, "load average");

async function main(): Promise<boolean> {
  const loadBefore = uptime();
  await resetDatabase(process.env.DATABASE_URL!);
  const model = await startOutsideModel({ port: MODEL_PORT, summaryLatencyMs: SUMMARY_LATENCY_MS, usage: "always" });
  process.env.OPENAI_BASE_URL = model.url;
  const db = await getDb();
  const preemptive = await benchUser();
  const inlineUser = await benchUser();
  await writeUserSettings(db, preemptive.id, { ...base, preemptiveThreshold: 0.6 });
  await writeUserSettings(db, inlineUser.id, { ...base, preemptiveThreshold: 0 });
  const users = { background: preemptive, inline: inlineUser, reference: preemptive };
  const conversations: Record<Mode, string> = {
    background: (await ops.createConversation(preemptive, { title: "background", model: SMALL, systemPrompt: "Be brief." })).id,
    inline: (await ops.createConversation(inlineUser, { title: "inline", model: SMALL, systemPrompt: "Be brief." })).id,
    reference: (await ops.createConversation(preemptive, { title: "reference", model: LARGE, systemPrompt: "Be brief." })).id,
  };
  const samples: Record<Mode, Sample[]> = { background: [], inline: [], reference: [] };
  const rng = seededRandom(5);
  const backgroundAttempts = (conversationId: string) => db.compactionAttempt.count({ where: { conversationId, background: true } });

  async function turn(mode: Mode, round: number): Promise<Sample> {
    const conversationId = conversations[mode];
    const started = performance.now();
    let inlineCompactions = 0;
    let awaited = false;
    for await (const event of await ops.startTurn(users[mode], { conversationId, content: `Round ${round}: ${chatter(rng, 60)} <<reply ${REPLY_TOKENS}>>` })) {
      if (event.type === "compaction") inlineCompactions++;
      if (event.type === "status" && event.stage === "awaiting_compaction") awaited = true;
      if (event.type === "error") throw new Error(`turn failed: ${event.message}`);
    }
    const ms = performance.now() - started;
    return { ms, round, inlineCompactions, awaited, backgroundAttempts: await backgroundAttempts(conversationId) };
  }

  const order: Mode[] = ["background", "inline", "reference"];
  for (let round = -WARMUP; round < ROUNDS; round++) {
    for (const mode of order) {
      const sample = await turn(mode, round);
      if (round >= 0) samples[mode].push(sample);
    }
  }
  await backgroundSettled(conversations.background);

  // A background turn is "during" a due compaction when the job scheduled after the
  // previous turn recorded an attempt by the end of this one; "right after" is the next.
  const background = samples.background;
  const during: Sample[] = [];
  const after: Sample[] = [];
  const quiet: Sample[] = [];
  for (let index = 1; index < background.length; index++) {
    const sample = background[index]!;
    const due = sample.backgroundAttempts > background[index - 1]!.backgroundAttempts;
    const previousDue = index >= 2 && background[index - 1]!.backgroundAttempts > background[index - 2]!.backgroundAttempts;
    if (due) during.push(sample);
    else if (previousDue) after.push(sample);
    else quiet.push(sample);
  }
  const inlineDue = samples.inline.filter((s) => s.inlineCompactions > 0);
  const inlineQuiet = samples.inline.filter((s) => s.inlineCompactions === 0);
  const backgroundInline = background.filter((s) => s.inlineCompactions > 0).length;
  const reference = samples.reference.map((s) => s.ms);
  const refP95 = p95(reference);
  const row = (label: string, list: number[]) => [label, list.length, fmt(median(list), 0), fmt(p95(list), 0), list.length ? fmt(p95(list) / refP95, 2) : "–"];
  const table = {
    headers: ["turns", "n", "p50 ms", "p95 ms", "p95 ÷ reference p95"],
    rows: [
      row("reference: nothing due (128k window)", reference),
      row("pre-emptive on: nothing due", quiet.map((s) => s.ms)),
      row("pre-emptive on: during a due background compaction", during.map((s) => s.ms)),
      row("… of which under the hard limit (sent as they were)", during.filter((s) => !s.awaited).map((s) => s.ms)),
      row("… of which over the hard limit (waited for the summary)", during.filter((s) => s.awaited).map((s) => s.ms)),
      row("pre-emptive on: right after one", after.map((s) => s.ms)),
      row("inline (contrast): compaction due", inlineDue.map((s) => s.ms)),
      row("inline (contrast): nothing due", inlineQuiet.map((s) => s.ms)),
    ],
  };
  const dueAll = [...during, ...after].map((s) => s.ms);
  const dueUnderLimit = [...during, ...after].filter((s) => !s.awaited).map((s) => s.ms);
  const awaitedCount = background.filter((s) => s.awaited).length;
  const verdicts: Verdict[] = [
    {
      target: "pre-emptive on: p95 of turns during / right after a due compaction within 10% of the reference p95",
      measured: `${fmt(p95(dueAll), 0)} vs ${fmt(refP95, 0)} ms (${fmt(p95(dueAll) / refP95, 2)}×)`,
      met: dueAll.length > 0 && p95(dueAll) <= refP95 * 1.1,
      note:
        `${awaitedCount} turn(s) arrived over the hard limit while the summary was being written and waited for it, as they must (a request over the hard limit cannot be sent, and cutting it would be truncation while summaries succeed). ` +
        `Back to back, each turn adds ~${REPLY_TOKENS + 80} tokens in tens of milliseconds, so the ~${fmtInt(SMALL_WINDOW - base.hardLimitReserve - 0.6 * SMALL_WINDOW)} tokens between the pre-emptive level and the hard limit fill before a ${fmtInt(SUMMARY_LATENCY_MS)} ms summary is written`,
    },
    {
      target: "pre-emptive on: p95 of the turns during / right after a due compaction that were under the hard limit, within 10% of the reference p95",
      measured: `${fmt(p95(dueUnderLimit), 0)} vs ${fmt(refP95, 0)} ms (${fmt(p95(dueUnderLimit) / refP95, 2)}×)`,
      met: dueUnderLimit.length > 0 && p95(dueUnderLimit) <= refP95 * 1.1,
    },
    { target: "compactions were due in both modes", measured: `${during.length} background, ${inlineDue.length} inline`, met: during.length > 0 && inlineDue.length > 0 },
    { target: "no inline compaction with pre-emptive on", measured: String(backgroundInline), met: backgroundInline === 0 },
  ];
  printTable("Turn latency, turns back to back", table);
  printTable("Targets", verdictTable(verdicts));
  const loadAfter = uptime();
  writeResults("compaction-latency", "Turn latency while a compaction runs (turns back to back)", {
    command: "npx tsx bench/compaction-latency.ts",
    load: `${loadBefore} at the start; ${loadAfter} at the end`,
    intro:
      `Outside model server: summaries take ${fmtInt(SUMMARY_LATENCY_MS)} ms, chat answers at once (~${REPLY_TOKENS}-token replies). ${fmtInt(SMALL_WINDOW)}-token window, ` +
      `${ROUNDS} rounds after ${WARMUP} warm-up rounds; each round one turn per conversation, no waiting between turns. ` +
      "*pre-emptive on*: preemptiveThreshold 0.6 (threshold 0.8); a turn is *during* a due compaction when the background job started after the previous reply recorded an attempt by its end. " +
      "*inline*: another user with preemptiveThreshold 0. *reference*: the pre-emptive user's settings on a 128k model (nothing due). Turn time = `ops.startTurn` to the `done` event, in process.",
    tables: [{ table }, { caption: "Targets", table: verdictTable(verdicts) }],
  });
  await model.close();
  return true;
}

runMain(main);
