// Load — 50 concurrent conversations × 20 turns against the RUNNING app (`next start`,
// production build) on 127.0.0.1, with its own database and the test server at a
// fixed small latency. Each virtual user creates a conversation (POST
// /api/conversations) and sends its turns one after another (POST
// /api/conversations/:id/messages {content, stream:false}); all users run at once.
// Reports errors (target 0) and p50/p95 turn latency; then checks the database: every
// message stored, sequence numbers contiguous.
//
//   npx tsx bench/load.ts [--users 50] [--turns 20]
import "./lib/env";
import { appendResults, fmt, fmtInt, median, p95, printTable, resetDatabase, runMain, verdictTable, type Verdict } from "./lib/common";
import { ensureBuild, startNext } from "./lib/next-server";
import { startTestServer } from "../tests/support/test-model";
import { getDb } from "../lib/db/client";
import { writeUserSettings } from "../lib/db/settings";
import { benchAuthHeaders, benchUser } from "./lib/user";
import { DEFAULT_SETTINGS } from "../lib/compression/settings";

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const USERS = arg("users", 50);
const TURNS = arg("turns", 20);
const CHAT_LATENCY_MS = 20;
const MODEL = "gpt-4o-mini";
// Small enough that every conversation compacts a few times during its 20 turns.
const WINDOW = 2500;
const TIME_LIMIT_MS = 5 * 60_000;

async function main() {
  const build = ensureBuild();
  await resetDatabase(process.env.DATABASE_URL!);
  const db = await getDb();
  // A small window so compactions (background and inline) also happen under load.
  // The virtual users share one account: the load is on the chat loop, not on sign-in.
  const account = await benchUser();
  const auth = await benchAuthHeaders(account);
  await writeUserSettings(db, account.id, { ...DEFAULT_SETTINGS, contextWindowOverrides: { [MODEL]: WINDOW }, hardLimitReserve: 400, keepRecentCount: 6, maxSummaryTokensPerLevel: 1000 });
  // The test model: REPLY_WORDS= (reply lengths) is its trigger, not the demo's.
  const model = await startTestServer({ chatLatencyMs: CHAT_LATENCY_MS, summaryLatencyMs: 200, tokensPerChunk: 10 });
  const next = await startNext({
    DATABASE_URL: process.env.DATABASE_URL!,
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: "test",
    LOG_LEVEL: "silent",
    STRATA_DEFAULT_MODEL: MODEL,
  });
  const create: number[] = [];
  const turns: number[] = [];
  const errors: string[] = [];
  const ids: string[] = [];
  const deadline = Date.now() + TIME_LIMIT_MS;
  const started = performance.now();
  try {
    // Warm the server's routes (not measured).
    await fetch(`${next.url}/api/conversations`, { headers: auth });
    await Promise.all(
      Array.from({ length: USERS }, async (_, user) => {
        let t = performance.now();
        let response: Response;
        try {
          response = await fetch(`${next.url}/api/conversations`, {
            method: "POST",
            headers: { "content-type": "application/json", ...auth },
            body: JSON.stringify({ title: `load ${user}`, model: MODEL }),
          });
        } catch (error) {
          errors.push(`user ${user} create: ${String(error)}`);
          return;
        }
        create.push(performance.now() - t);
        if (response.status !== 201) {
          errors.push(`user ${user} create: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
          return;
        }
        const { conversation } = (await response.json()) as { conversation: { id: string } };
        ids.push(conversation.id);
        for (let turn = 1; turn <= TURNS; turn++) {
          if (Date.now() > deadline) {
            errors.push(`user ${user}: time limit reached before turn ${turn}`);
            return;
          }
          const content = `User ${user}, turn ${turn}: ${turn % 5 === 0 ? `FACT u${user}t${turn}=v${turn}\n` : ""}tell me about load testing. REPLY_WORDS=${40 + ((user * 7 + turn * 13) % 60)}`;
          t = performance.now();
          try {
            const reply = await fetch(`${next.url}/api/conversations/${conversation.id}/messages`, {
              method: "POST",
              headers: { "content-type": "application/json", ...auth },
              body: JSON.stringify({ content, stream: false }),
            });
            const body = (await reply.json()) as { error: string | null; events?: { type: string; message?: { role: string } }[] };
            turns.push(performance.now() - t);
            if (reply.status !== 200 || body.error) errors.push(`user ${user} turn ${turn}: HTTP ${reply.status} ${body.error ?? ""}`);
            else if (!body.events?.some((e) => e.type === "message" && e.message?.role === "assistant")) errors.push(`user ${user} turn ${turn}: no assistant message`);
          } catch (error) {
            errors.push(`user ${user} turn ${turn}: ${String(error)}`);
          }
        }
      }),
    );
  } finally {
    await next.stop();
    await model.close();
  }
  const seconds = (performance.now() - started) / 1000;

  // Integrity after the run.
  const conversations = await db.conversation.findMany({ where: { id: { in: ids } }, select: { id: true, lastSeq: true } });
  let gaps = 0;
  let users = 0;
  for (const conversation of conversations) {
    const seqs = (await db.message.findMany({ where: { conversationId: conversation.id }, select: { seq: true, role: true }, orderBy: { seq: "asc" } }));
    if (seqs.length !== conversation.lastSeq || seqs.some((row, index) => row.seq !== index + 1)) gaps++;
    users += seqs.filter((row) => row.role === "user").length;
  }
  const compactions = await db.compaction.count({ where: { conversationId: { in: ids } } });
  const table = {
    headers: ["measure", "value"],
    rows: [
      ["virtual users × turns", `${USERS} × ${TURNS} = ${fmtInt(USERS * TURNS)} turns`],
      ["wall time", `${fmt(seconds, 1)} s (${fmt(turns.length / seconds, 1)} turns/s)`],
      ["errors", String(errors.length)],
      ["turn latency p50 / p95 / max (ms)", `${fmt(median(turns), 0)} / ${fmt(p95(turns), 0)} / ${fmt(Math.max(...turns), 0)}`],
      ["create conversation p50 / p95 (ms)", `${fmt(median(create), 0)} / ${fmt(p95(create), 0)}`],
      ["user messages stored", `${fmtInt(users)} of ${fmtInt(USERS * TURNS)}`],
      ["conversations with seq gaps", String(gaps)],
      ["compactions created under load", String(compactions)],
    ],
  };
  printTable("Load against next start", table);
  if (errors.length) console.log(errors.slice(0, 10).join("\n"));
  const verdicts: Verdict[] = [
    { target: "0 errors", measured: String(errors.length), met: errors.length === 0, note: errors[0] },
    { target: "every user message stored, no seq gaps", measured: `${users}/${USERS * TURNS}, ${gaps} gaps`, met: users === USERS * TURNS && gaps === 0 },
  ];
  printTable("Targets", verdictTable(verdicts));
  appendResults(`Load: ${USERS} concurrent conversations × ${TURNS} turns`, {
    intro:
      `\`next start\` (production build${build.built ? ", rebuilt for this run" : ""}) on 127.0.0.1 with its own database; test server with a fixed ` +
      `${CHAT_LATENCY_MS} ms pause per streamed chunk of 10 words (40–100-word replies) and 200 ms summaries; ${fmtInt(WINDOW)}-token window so compaction ` +
      `also runs under load. All ${USERS} users at once, each sending its turns one after another with \`stream: false\`. Latency = client-side time of ` +
      "one POST /api/conversations/:id/messages (the whole turn, reply included).",
    tables: [{ table }, { caption: "Targets", table: verdictTable(verdicts) }],
  });
}

runMain(main);
