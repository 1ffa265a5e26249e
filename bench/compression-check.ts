// Benchmark 2 — compression-check overhead per turn when no compaction is due:
// manager.process(transcript) + manager.measure(transcript) on a transcript below the
// threshold. Two managers side by side:
//   app    = the app's manager (lib/chat/compressor): process() reads the settings from
//            PostgreSQL on every call (REQ-3.5), so one DB round trip is included;
//   engine = the same AutoCompressionManager with an in-memory settings reader: the
//            engine's own CPU cost.
// Three transcript shapes: a typical active context (8 summaries + 30 messages), a
// small window filled to 75%, and a 128k window filled to 79% (the worst case below
// the threshold).
//
//   npx tsx bench/compression-check.ts
import "./lib/env";
import { appendResults, fmt, fmtInt, median, p95, printTable, resetDatabase, runMain, verdictTable, type Verdict } from "./lib/common";
import { compactionTree, seedMessages } from "./lib/seed";
import { getDb } from "../lib/db/client";
import { writeDefaults } from "../lib/db/settings";
import { compressionManager } from "../lib/chat/compressor";
import { AutoCompressionManager } from "../lib/compression/manager";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../lib/compression/settings";
import { createSummarizer } from "../lib/llm/summarizer";
import { tokenCounter } from "../lib/llm/tokens";
import { modelCatalog } from "../lib/llm/models";
import type { CompactionRecord, Transcript } from "../lib/compression/types";
import { logger } from "../lib/log/logger";

const ITERATIONS = 400;

function transcriptOf(messageCount: number, recent: number, model: string): Transcript {
  const messages = seedMessages(messageCount, 3);
  const tree = compactionTree(messages, recent);
  const compactions: CompactionRecord[] = tree.active.map((c) => ({
    id: c.id,
    level: c.level,
    kind: "summary",
    trigger: "auto",
    strategy: "ai_summary",
    fromSeq: c.fromSeq,
    toSeq: c.toSeq,
    summary: c.summary,
    summaryTokens: c.summaryTokens,
    coveredMessageCount: c.coveredMessageCount,
    coveredTokens: c.coveredTokens,
    childIds: c.children.map((child) => child.id),
    background: false,
    durationMs: 0,
    messagesBefore: 0,
    messagesAfter: 0,
    tokensBefore: 0,
    tokensAfter: 0,
    createdAt: new Date(),
  }));
  const active = tree.active.length ? messages.slice(-recent) : messages;
  return {
    conversationId: "00000000-0000-4000-8000-000000000000",
    model,
    systemPrompt: "You are a helpful assistant.",
    systemPromptTokens: 10,
    compactions,
    messages: active.map((m) => ({ seq: m.seq, role: m.role, content: m.content, tokens: m.tokens, pinned: false })),
    totalMessageCount: messageCount,
  };
}

async function main() {
  await resetDatabase(process.env.DATABASE_URL!);
  // A reserve that keeps the 8k window's hard limit (7,168) above its 80% threshold.
  const settings: CompressionSettings = { ...DEFAULT_SETTINGS, hardLimitReserve: 1024, contextWindowOverrides: { "bench-8k": 8192 } };
  await writeDefaults(await getDb(), settings);
  const app = compressionManager();
  const engine = new AutoCompressionManager({
    settings: { read: async () => settings },
    summarizer: createSummarizer(),
    tokens: tokenCounter,
    models: modelCatalog,
    logger: logger.child({ module: "bench" }),
  });

  // Find transcripts at the wanted fill levels.
  const fill = (model: string, window: number, ratio: number) => {
    let count = 40;
    while (engine.measure(transcriptOf(count + 2, count + 2, model), settings).totalTokens < window * ratio) count += 2;
    return transcriptOf(count, count, model);
  };
  const shapes: { name: string; transcript: Transcript }[] = [
    { name: "typical active context (1k-message conversation)", transcript: transcriptOf(1000, 30, "gpt-4o-mini") },
    { name: "8k window at 75%", transcript: fill("bench-8k", 8192, 0.75) },
    { name: "128k window at 79%", transcript: fill("gpt-4o-mini", 128_000, 0.79) },
  ];

  const results = shapes.map(() => ({ app: [] as number[], engine: [] as number[] }));
  for (let i = 0; i < 20; i++) {
    for (const shape of shapes) {
      await app.process(shape.transcript);
      await engine.process(shape.transcript);
    }
  }
  for (let i = 0; i < ITERATIONS; i++) {
    for (const [index, shape] of shapes.entries()) {
      for (const [which, manager] of [["app", app], ["engine", engine]] as const) {
        const started = performance.now();
        const change = await manager.process(shape.transcript);
        manager.measure(change.transcript, settings);
        const ms = performance.now() - started;
        if (change.created.length > 0 || change.attempts.length > 0) throw new Error(`a compaction was due for "${shape.name}"`);
        results[index]![which].push(ms);
      }
    }
  }

  const table = {
    headers: ["transcript", "entries", "tokens (ratio)", "app median ms (incl. settings read)", "app p95 ms", "engine median ms", "engine p95 ms"],
    rows: shapes.map((shape, index) => {
      const m = engine.measure(shape.transcript, settings);
      const r = results[index]!;
      return [
        shape.name,
        String(shape.transcript.messages.length + shape.transcript.compactions.length),
        `${fmtInt(m.totalTokens)} (${fmt(m.ratio * 100, 0)}%)`,
        fmt(median(r.app), 3),
        fmt(p95(r.app), 3),
        fmt(median(r.engine), 3),
        fmt(p95(r.engine), 3),
      ];
    }),
  };
  printTable(`Compression check with nothing due (${ITERATIONS} iterations each, interleaved)`, table);
  const typical = results[0]!;
  const worst = results[2]!;
  const verdicts: Verdict[] = [
    { target: "≤ 1 ms per turn (typical active context, app manager incl. settings read)", measured: `${fmt(median(typical.app), 3)} ms`, met: median(typical.app) <= 1 },
    { target: "≤ 1 ms per turn (typical, engine CPU only)", measured: `${fmt(median(typical.engine), 3)} ms`, met: median(typical.engine) <= 1 },
    {
      target: "≤ 1 ms per turn (128k window at 79%, engine CPU only)",
      measured: `${fmt(median(worst.engine), 3)} ms`,
      met: median(worst.engine) <= 1,
      note: "each process() re-tokenizes every summary and re-assembles the request for the hard-limit check; cost grows with the active context",
    },
  ];
  printTable("Targets", verdictTable(verdicts));
  appendResults("2. Compression-check overhead per turn (no compaction due)", {
    intro:
      "`manager.process(transcript)` + `manager.measure(transcript)` on transcripts below the threshold. *app* is the app's manager, " +
      "whose `process()` reads the settings from PostgreSQL each call; *engine* is the same class with in-memory settings (CPU only). " +
      `Interleaved, ${ITERATIONS} iterations per cell.`,
    tables: [{ table }, { caption: "Targets", table: verdictTable(verdicts) }],
  });
}

runMain(main);
