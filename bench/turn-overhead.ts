// Per-turn server overhead: what Strata adds to a chat turn, measured from outside on
// the production build, against the least a server could do in the same run.
//
//   npx tsx bench/turn-overhead.ts      (BENCH_ROUNDS=40, BENCH_APP_PORT=3550, BENCH_MODEL_PORT=4450)
//
// - Strata: `next build` (bench/lib/next-server.ts, a private copy) + `next start`
//   over PostgreSQL; turns through POST /api/conversations/:id/messages with a
//   personal API token (non-streamed JSON answer), the model being the outside model
//   server (tests/support/outside-model) answering at once.
// - Baseline: bench/lib/forwarder.mjs, a bare Node HTTP server that receives the very
//   request Strata sent the model for that conversation, forwards it streamed to the
//   same model server and answers when the stream ends.
// - Conversations of 1k, 10k and 100k stored messages grown through the real engine
//   (bench/lib/grown-seed.ts), so each one's active context is what compaction left.
//   The seeded database is kept as a template keyed by the engine's sources and
//   cloned for every run.
// - Rounds interleave every size and both servers (the order of the two alternates), so
//   machine load hits them alike; overhead = Strata's turn − the baseline's, paired.
// - The breakdown comes from the app itself: STRATA_SERVER_TIMING=1 makes the route
//   return a Server-Timing header with its spans and the queries Prisma ran.
import { benchDatabaseUrl, BENCH_ADMIN_URL } from "./lib/env";
import { spawn, execSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { applyMigrations } from "../lib/db/migrate";
import { closeDb, getDb } from "../lib/db/client";
import { startOutsideModel } from "../tests/support/outside-model/server";
import * as outside from "../tests/support/outside-model/behaviour";
import { seededRandom } from "../lib/random";
import { chatter } from "../tests/support/simulation";
import { growConversation, type GrownConversation } from "./lib/grown-seed";
import { ensureBuild, startNext } from "./lib/next-server";
import { benchAuthHeaders, benchUser } from "./lib/user";
import { fmt, fmtInt, median, p95, printTable, ROOT, runMain, type Table, type Verdict, verdictTable, writeResults } from "./lib/common";

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const WARMUP = 5;
const APP_PORT = Number(process.env.BENCH_APP_PORT ?? 3550);
const FORWARDER_PORT = APP_PORT + 1;
const MODEL_PORT = Number(process.env.BENCH_MODEL_PORT ?? 4450);
const MAIN_URL = benchDatabaseUrl("turn_overhead");
const SEED_DB = "strata_bench_turn_overhead_seed";

type SeedMeta = { key: string; token: string; conversations: GrownConversation[] };

/** What the seed depends on: the engine, the token counter, the seeding code, the sizes. */
function seedKey(): string {
  const hash = createHash("sha256");
  const files = [
    ...readdirSync(path.join(ROOT, "lib/compression"), { recursive: true }).map((f) => path.join("lib/compression", String(f))),
    "lib/llm/tokens.ts",
    "lib/llm/models.ts",
    "bench/lib/grown-seed.ts",
    "tests/support/outside-model/behaviour.ts",
    ...readdirSync(path.join(ROOT, "prisma/migrations"), { recursive: true }).map((f) => path.join("prisma/migrations", String(f))),
  ].sort();
  for (const file of files) {
    try {
      hash.update(file).update(readFileSync(path.join(ROOT, file)));
    } catch {
      // a directory
    }
  }
  return `${hash.update(SIZES.join(",")).digest("hex").slice(0, 16)}`;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BENCH_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Clones the seeded template into the run's database, seeding it first when stale. */
async function prepareDatabase(): Promise<SeedMeta> {
  const key = seedKey();
  const existing = await admin(async (client) => {
    const { rows } = await client.query<{ comment: string | null }>(
      "SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1",
      [SEED_DB],
    );
    try {
      const meta = JSON.parse(rows[0]?.comment ?? "null") as SeedMeta | null;
      return meta?.key === key ? meta : null;
    } catch {
      return null;
    }
  });
  const mainName = new URL(MAIN_URL).pathname.slice(1);
  if (existing) {
    await admin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${mainName} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${mainName} TEMPLATE ${SEED_DB}`);
    });
    console.log(`seeded conversations reused from ${SEED_DB} (key ${key})`);
    return existing;
  }
  console.log(`seeding ${SIZES.map(fmtInt).join(", ")}-message conversations through the engine (once per engine version) …`);
  await admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${SEED_DB} WITH (FORCE)`);
    await client.query(`DROP DATABASE IF EXISTS ${mainName} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${mainName}`);
  });
  const client = new pg.Client({ connectionString: MAIN_URL });
  await client.connect();
  await applyMigrations(client);
  const user = await benchUser();
  const { authorization } = await benchAuthHeaders(user);
  const conversations: GrownConversation[] = [];
  for (const count of SIZES) {
    const grown = await growConversation(client, await getDb(), { userId: user.id, count, seed: count });
    console.log(`  ${fmtInt(count)} messages: ${grown.compactions} compactions, active ${grown.active.levels} + ${grown.active.messages} messages (${fmtInt(grown.active.tokens)} tokens), ${fmt(grown.seedSeconds, 0)} s`);
    conversations.push(grown);
  }
  await client.end();
  await closeDb();
  const meta: SeedMeta = { key, token: authorization, conversations };
  await admin(async (admin) => {
    await admin.query(`CREATE DATABASE ${SEED_DB} TEMPLATE ${mainName}`);
    await admin.query(`COMMENT ON DATABASE ${SEED_DB} IS '${JSON.stringify(meta).replaceAll("'", "''")}'`);
  });
  return meta;
}

async function vacuumAnalyze(): Promise<void> {
  const client = new pg.Client({ connectionString: MAIN_URL });
  await client.connect();
  try {
    await client.query("VACUUM ANALYZE");
  } finally {
    await client.end();
  }
}

function parseServerTiming(header: string | null): Map<string, { ms: number; n: number }> {
  const spans = new Map<string, { ms: number; n: number }>();
  for (const part of (header ?? "").split(",")) {
    const match = /^\s*([\w.]+);dur=([\d.]+);desc="n=(\d+)"/.exec(part);
    if (match) spans.set(match[1]!, { ms: Number(match[2]), n: Number(match[3]) });
  }
  return spans;
}

function startForwarder(modelUrl: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(ROOT, "bench/lib/forwarder.mjs")], {
    env: { ...process.env, PORT: String(FORWARDER_PORT), FORWARD_TO: `${modelUrl}/chat/completions` },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`forwarder exited with ${code}`)));
    child.stdout!.once("data", () => resolve({ url: `http://127.0.0.1:${FORWARDER_PORT}`, stop: () => child.kill("SIGTERM") }));
  });
}

type Sample = { strata: number; baseline: number; spans: Map<string, { ms: number; n: number }> };

const uptime = () => execSync("uptime").toString().trim().replace(/^.*load average/, "load average");

async function main(): Promise<boolean> {
  const loadBefore = uptime();
  const build = ensureBuild();
  if (build.built) console.log(`built in ${fmt(build.seconds, 0)} s`);
  const meta = await prepareDatabase();
  // This machine's PostgreSQL runs with autovacuum off. A database that grew through
  // 100,000 turns under a default installation has been vacuumed as it went; without it
  // the seeding's dead versions of each conversation row (every append updates it) make
  // every lookup of that row walk them, which is not what users' servers do.
  await vacuumAnalyze();
  const model = await startOutsideModel({ port: MODEL_PORT, usage: "always" });
  const forwarder = await startForwarder(model.url);
  const next = await startNext(
    {
      DATABASE_URL: MAIN_URL,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "test",
      LOG_LEVEL: "silent",
      STRATA_DEFAULT_MODEL: "gpt-4o-mini",
      // Counted, as for every user (the default limit is on), but never reached.
      STRATA_MESSAGE_RATE_LIMIT: "1000000",
      STRATA_SERVER_TIMING: "1",
    },
    APP_PORT,
  );
  const rng = seededRandom(11);
  const lastBody = new Map<string, string>();
  const strataTurn = async (conversationId: string) => {
    const started = performance.now();
    const response = await fetch(`${next.url}/api/conversations/${conversationId}/messages`, {
      method: "POST",
      headers: { authorization: meta.token, "content-type": "application/json" },
      // Chatter, and a word no earlier message has (as a user's message names things): recall
      // reads that word's count over the compressed messages every turn, its no-search path.
      body: JSON.stringify({ content: `${chatter(rng, 40)} See ticket k${Math.floor(rng() * 1e9).toString(36)}.` }),
    });
    const result = (await response.json()) as { error?: unknown };
    const ms = performance.now() - started;
    if (!response.ok || result.error) throw new Error(`turn failed (${response.status}): ${JSON.stringify(result).slice(0, 500)}`);
    const sent = model.requests().findLast((r) => r.kind === "chat");
    if (!sent) throw new Error("the model saw no chat request");
    lastBody.set(conversationId, JSON.stringify(sent.body));
    model.reset();
    return { ms, spans: parseServerTiming(response.headers.get("server-timing")) };
  };
  const baselineTurn = async (conversationId: string) => {
    const started = performance.now();
    const response = await fetch(forwarder.url, { method: "POST", headers: { "content-type": "application/json" }, body: lastBody.get(conversationId)! });
    await response.json();
    if (!response.ok) throw new Error(`forwarder failed (${response.status})`);
    model.reset();
    return performance.now() - started;
  };

  const samples = new Map<number, Sample[]>(SIZES.map((size) => [size, []]));
  const requestTokens = new Map<number, number>();
  try {
    for (let round = -WARMUP; round < ROUNDS; round++) {
      for (const [index, size] of SIZES.entries()) {
        const conversation = meta.conversations[index]!;
        let strata: Awaited<ReturnType<typeof strataTurn>>;
        let baseline: number;
        if (round % 2 === 0 && lastBody.has(conversation.id)) {
          baseline = await baselineTurn(conversation.id);
          strata = await strataTurn(conversation.id);
        } else {
          strata = await strataTurn(conversation.id);
          baseline = await baselineTurn(conversation.id);
        }
        if (round >= 0) samples.get(size)!.push({ strata: strata.ms, baseline, spans: strata.spans });
        requestTokens.set(size, outside.promptTokens(JSON.parse(lastBody.get(conversation.id)!) as { messages: outside.Message[] }));
      }
    }
  } finally {
    await next.stop();
    forwarder.stop();
    await model.close();
  }
  const loadAfter = uptime();

  const overhead = (size: number) => samples.get(size)!.map((s) => s.strata - s.baseline);
  const rows: (string | number)[][] = SIZES.map((size, index) => {
    const list = samples.get(size)!;
    const c = meta.conversations[index]!;
    return [
      fmtInt(size),
      `${c.compactions} (active: ${c.active.levels})`,
      `${fmtInt(c.active.messages)} msgs, ${fmtInt(requestTokens.get(size) ?? 0)} tok`,
      fmt(median(list.map((s) => s.baseline)), 1),
      fmt(median(list.map((s) => s.strata)), 1),
      fmt(p95(list.map((s) => s.strata)), 1),
      fmt(median(overhead(size)), 1),
      fmt(p95(overhead(size)), 1),
      list.length,
    ];
  });
  const table: Table = {
    headers: ["stored messages", "compactions made while growing", "request sent to the model", "baseline p50 ms", "Strata p50 ms", "Strata p95 ms", "added p50 ms", "added p95 ms", "turns"],
    rows,
  };
  const spanNames = [...new Set(SIZES.flatMap((size) => samples.get(size)!.flatMap((s) => [...s.spans.keys()])))];
  const breakdown: Table = {
    headers: ["span (Server-Timing)", ...SIZES.map((size) => `${fmtInt(size)}: median ms (count per turn)`)],
    rows: spanNames.map((name) => [
      name,
      ...SIZES.map((size) => {
        const list = samples.get(size)!;
        const ms = median(list.map((s) => s.spans.get(name)?.ms ?? 0));
        const n = median(list.map((s) => s.spans.get(name)?.n ?? 0));
        return `${fmt(ms, 2)} (${n})`;
      }),
    ]),
  };
  const first = SIZES[0]!;
  const last = SIZES.at(-1)!;
  const ratio = median(overhead(last)) / median(overhead(first));
  const turnRatio = median(samples.get(last)!.map((s) => s.strata)) / median(samples.get(first)!.map((s) => s.strata));
  const verdicts: Verdict[] = [
    { target: `added time p50 ≤ 10 ms at ${fmtInt(last)} messages`, measured: `${fmt(median(overhead(last)), 1)} ms`, met: median(overhead(last)) <= 10 },
    { target: `added time t(${fmtInt(last)}) / t(${fmtInt(first)}) ≤ 1.5`, measured: `${fmt(ratio, 2)} (whole turn: ${fmt(turnRatio, 2)})`, met: ratio <= 1.5 },
  ];
  printTable("Per-turn server overhead", table);
  printTable("Where Strata's time goes (median per turn)", breakdown);
  printTable("Targets", verdictTable(verdicts));
  writeResults("turn-overhead", "Per-turn server overhead", {
    command: "npx tsx bench/turn-overhead.ts",
    load: `${loadBefore} at the start; ${loadAfter} at the end`,
    intro:
      `Production build (\`next start\`) over PostgreSQL; turns through \`POST /api/conversations/:id/messages\` with an API token; the outside model server answers at once. ` +
      `Baseline: a bare Node forwarder (bench/lib/forwarder.mjs) sent the exact request Strata sent the model for that conversation, forwarding it streamed to the same model server. ` +
      `${ROUNDS} rounds after ${WARMUP} warm-up rounds; each round runs every size, Strata and baseline back to back in alternating order; *added* = Strata − baseline per pair. ` +
      `Conversations grown through the real engine (default settings, gpt-4o-mini's 128k window, the outside model's extractive summaries) and stored with every compaction it made, so the active context is what compaction left. ` +
      `Each message is chatter (the seed's small vocabulary, so no word of it is telling) with one word no earlier message has: automatic recall reads that word's count over the compressed messages every turn and, finding nothing telling, makes no search; a message with a rare word from the compressed history would add one search restricted to such words, which this seed (chatter only) cannot show.`,
    tables: [
      { caption: "Turn time", table },
      { caption: "Breakdown (Server-Timing spans from the app, STRATA_SERVER_TIMING=1; db = every query Prisma ran for the request, settingsRead/load = settings reads and transcript loads)", table: breakdown },
      { caption: "Targets", table: verdictTable(verdicts) },
    ],
  });
  return true;
}

runMain(main);
