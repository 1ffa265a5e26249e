// Benchmark 1 — context assembly vs history length.
//
// Conversations of 1k, 10k and 100k persisted messages (seeded through SQL with a
// level 1–3 compaction tree; the newest 30 messages uncovered). Measures what the
// chat loop does before calling the model when no compaction is due:
//   active   = loadTranscript + readSettings + manager.buildRequest
//   pre-call = compressBeforeCall (load + manager.process + save nothing) + readSettings + buildRequest
//   baseline = read EVERY message of the conversation + readSettings + buildRequest
// Sizes are measured round-robin in the same loop, so background load hits them alike.
//
//   npx tsx bench/context-assembly.ts [--iterations 60]
import "./lib/env";
import pg from "pg";
import { appendResults, fmt, fmtInt, median, printTable, resetDatabase, runMain, timed, verdictTable, type Verdict } from "./lib/common";
import { seedConversation, type SeededConversation } from "./lib/seed";
import { getDb } from "../lib/db/client";
import { loadTranscript } from "../lib/db/transcript";
import { readSettings } from "../lib/db/settings";
import { benchUser } from "./lib/user";
import { toTranscriptMessage } from "../lib/db/mappers";
import { compressBeforeCall, compressionManager, countSystemPrompt } from "../lib/chat/compressor";
import { countRequestTokens } from "../lib/llm/tokens";
import type { Transcript } from "../lib/compression/types";

const SIZES = [1_000, 10_000, 100_000];
const RECENT = 30;
const argIterations = Number(process.argv[process.argv.indexOf("--iterations") + 1]);
const ITERATIONS = process.argv.includes("--iterations") && argIterations > 0 ? argIterations : 60;
const BASELINE_ITERATIONS = (size: number) => (size >= 100_000 ? 3 : size >= 10_000 ? 7 : 15);
// Building a request from 100k messages means cutting almost all of them to fit; it
// dominates the baseline's run time, so the largest size builds fewer times.
const BASELINE_BUILDS = (size: number) => (size >= 100_000 ? 3 : 5);

async function activePath(userId: string, conversationId: string) {
  const db = await getDb();
  const { transcript } = await loadTranscript(db, userId, conversationId, countSystemPrompt);
  const { settings } = await readSettings(db, userId, conversationId);
  return compressionManager().buildRequest(transcript, settings);
}

async function preCallPath(userId: string, conversationId: string) {
  const db = await getDb();
  const { settings } = await readSettings(db, userId, conversationId);
  const applied = await compressBeforeCall(userId, conversationId, settings);
  if (applied.compactions.length > 0 || applied.change.attempts.length > 0) throw new Error("a compaction was due; the benchmark expects none");
  return compressionManager().buildRequest(applied.change.transcript, settings);
}

/** The naive alternative: every message of the conversation, no compactions. Returns read and build times apart. */
async function loadEverything(userId: string, conversationId: string, build: boolean) {
  const started = performance.now();
  const db = await getDb();
  const conversation = await db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
  const rows = await db.message.findMany({
    where: { conversationId, rewoundAt: null, status: { not: "error" } },
    orderBy: { seq: "asc" },
  });
  const transcript: Transcript = {
    conversationId,
    model: conversation.model,
    systemPrompt: conversation.systemPrompt,
    systemPromptTokens: countSystemPrompt(conversation.systemPrompt),
    compactions: [],
    messages: rows.map(toTranscriptMessage),
    totalMessageCount: conversation.lastSeq,
  };
  const { settings } = await readSettings(db, userId, conversationId);
  const readMs = performance.now() - started;
  if (!build) return { readMs, buildMs: Number.NaN, request: null };
  const buildStarted = performance.now();
  const request = compressionManager().buildRequest(transcript, settings);
  return { readMs, buildMs: performance.now() - buildStarted, request };
}

async function main() {
  await resetDatabase(process.env.DATABASE_URL!);
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const seeded: SeededConversation[] = [];
  const seedStarted = performance.now();
  const user = await benchUser();
  for (const count of SIZES) seeded.push(await seedConversation(client, { userId: user.id, count, recent: RECENT }));
  await client.query("ANALYZE");
  await client.end();
  console.log(`seeded ${SIZES.join(", ")} messages in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);

  const times = new Map<number, { active: number[]; preCall: number[]; baselineRead: number[]; baselineBuild: number[]; requestTokens: number; baselineTokens: number; activeEntries: number }>();
  for (const s of seeded) times.set(s.messageCount, { active: [], preCall: [], baselineRead: [], baselineBuild: [], requestTokens: 0, baselineTokens: 0, activeEntries: 0 });

  // Warm-up: connections, encoders, JIT.
  for (let i = 0; i < 5; i++) {
    for (const s of seeded) {
      await activePath(user.id, s.id);
      await preCallPath(user.id, s.id);
    }
  }

  for (let i = 0; i < ITERATIONS; i++) {
    for (const s of seeded) {
      const entry = times.get(s.messageCount)!;
      const active = await timed(() => activePath(user.id, s.id));
      entry.active.push(active.ms);
      entry.requestTokens = countRequestTokens(active.value.messages);
      entry.activeEntries = active.value.messages.length;
      entry.preCall.push((await timed(() => preCallPath(user.id, s.id))).ms);
    }
  }
  const maxBaseline = Math.max(...SIZES.map(BASELINE_ITERATIONS));
  for (let i = 0; i < maxBaseline; i++) {
    for (const s of seeded) {
      const entry = times.get(s.messageCount)!;
      if (entry.baselineRead.length >= BASELINE_ITERATIONS(s.messageCount)) continue;
      const base = await loadEverything(user.id, s.id, entry.baselineBuild.length < BASELINE_BUILDS(s.messageCount));
      entry.baselineRead.push(base.readMs);
      if (base.request) {
        entry.baselineBuild.push(base.buildMs);
        entry.baselineTokens = countRequestTokens(base.request.messages);
      }
      // Interleave active measurements so the ratio compares like with like.
      entry.active.push((await timed(() => activePath(user.id, s.id))).ms);
    }
  }

  const small = times.get(SIZES[0]!)!;
  const large = times.get(SIZES.at(-1)!)!;
  const rows = seeded.map((s) => {
    const t = times.get(s.messageCount)!;
    return [
      fmtInt(s.messageCount),
      fmtInt(s.compactionCount),
      s.activeCompactions.map((c) => `L${c.level}`).join(" "),
      `${t.activeEntries} msgs / ${fmtInt(t.requestTokens)} tok`,
      fmt(median(t.active)),
      fmt(median(t.preCall)),
      fmt(median(t.baselineRead), 1),
      fmt(median(t.baselineRead) + median(t.baselineBuild), 1),
      `${fmt(median(t.baselineRead) / median(t.active), 0)}× / ${fmt((median(t.baselineRead) + median(t.baselineBuild)) / median(t.active), 0)}×`,
      String(t.active.length),
    ];
  });
  const table = {
    headers: ["messages", "compactions (all levels)", "active compactions", "request built", "active median ms", "pre-call median ms", "load-all: read ms", "load-all: read+build ms", "load-all ÷ active (read / read+build)", "n"],
    rows,
  };
  printTable("Context assembly (median ms)", table);

  const growth = median(large.active) / median(small.active);
  const speedup = median(large.baselineRead) / median(large.active);
  const verdicts: Verdict[] = [
    { target: "median at 100k ≤ 10 ms", measured: `${fmt(median(large.active))} ms`, met: median(large.active) <= 10 },
    { target: "t(100k) / t(1k) ≤ 1.5", measured: fmt(growth), met: growth <= 1.5 },
    { target: "≥ 100× faster than load-all at 100k (read part only, the conservative ratio)", measured: `${fmt(speedup, 0)}×`, met: speedup >= 100 },
  ];
  printTable("Targets", verdictTable(verdicts));
  appendResults("1. Context assembly vs history length", {
    intro:
      "Time to build the next model request with no compaction due. *active* = `loadTranscript` + `readSettings` + `manager.buildRequest` " +
      "(what `runTurn` does before the model call); *pre-call* = the whole pre-call path including `compressBeforeCall` (lock, load, " +
      "`manager.process`, nothing to save); *load-all* = the naive baseline that reads every message of the conversation and builds a " +
      `request from them. Real PostgreSQL, seeded through SQL; sizes measured round-robin in one loop; ${ITERATIONS}+ samples per size ` +
      `(load-all reads: ${SIZES.map(BASELINE_ITERATIONS).join("/")}, builds: ${SIZES.map(BASELINE_BUILDS).join("/")}). The target ratio uses the ` +
      "load-all *read* time alone, which is a lower bound for any load-everything design.",
    tables: [
      { table },
      { caption: "Targets", table: verdictTable(verdicts) },
    ],
    notes: [
      `The load-all build of ${fmtInt(SIZES.at(-1)!)} messages took ${fmt(median(large.baselineBuild) / 1000, 1)} s (most of it ` +
        "buildRequest cutting the history down to the window).",
      "Absolute figures move with the shared machine's load; compare the ratios and the growth factor.",
    ],
  });
}

runMain(main);
