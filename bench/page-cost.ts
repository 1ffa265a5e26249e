// Cost of opening a long conversation (10,000 and 100,000 messages, three levels of
// compaction) on a running `next start` (production build, real PostgreSQL):
//   - server time and HTML bytes of GET /c/<id>;
//   - expanding a block of 50 originals: loadCompactionChildren(limit 50) in-process and
//     GET /api/compactions/:id/children?limit=50 over HTTP; plus expanding a level-3 block.
// Both sizes are requested in the same loop, so t(100k)/t(10k) is measured side by side.
// The build is made in a private copy of the sources (bench/lib/next-server.ts).
//
//   npx tsx bench/page-cost.ts [--requests 30]      (BENCH_APP_PORT=3552)
import "./lib/env";
import { execSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { fmt, fmtInt, median, p95, printTable, resetDatabase, runMain, verdictTable, writeResults, type Verdict } from "./lib/common";
import { ensureBuild, startNext } from "./lib/next-server";
import { seedConversation, type SeededConversation } from "./lib/seed";
import { benchAuthHeaders, benchUser } from "./lib/user";
import { startDemoServer } from "../lib/llm/demo-server";
import { getDb } from "../lib/db/client";
import { loadCompactionChildren } from "../lib/db/compactions";

const requestsArg = Number(process.argv[process.argv.indexOf("--requests") + 1]);
const REQUESTS = process.argv.includes("--requests") && requestsArg > 0 ? requestsArg : 30;
const SIZES = [10_000, 100_000];
const APP_PORT = Number(process.env.BENCH_APP_PORT ?? 3552);
// The uncovered tail is longer than the page's first load (200), so the page is full.
const RECENT = 300;
// Level-1 summaries of 60 messages: expanding one yields a block of 50 originals.
const CHUNK = 60;

let auth: { authorization: string } | undefined;

async function timedFetch(url: string): Promise<{ ms: number; firstByteMs: number; status: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { "accept-encoding": "identity", ...auth } });
  const firstByteMs = performance.now() - started;
  const body = await response.text();
  return { ms: performance.now() - started, firstByteMs, status: response.status, body };
}

type Series = { page: number[]; firstByte: number[]; apiL1: number[]; apiL3: number[]; inProcessL1: number[]; inProcessL3: number[] };
type Shape = { html: string; l1Items: number; l1Messages: number; l3Items: number };

const uptime = () => execSync("uptime").toString().trim().replace(/^.*load average/, "load average");

async function main() {
  const loadBefore = uptime();
  const build = ensureBuild();
  if (build.built) console.log(`built in ${fmt(build.seconds, 0)} s`);
  await resetDatabase(process.env.DATABASE_URL!);
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const user = await benchUser();
  auth = await benchAuthHeaders(user);
  const seeded: SeededConversation[] = [];
  for (const count of SIZES) seeded.push(await seedConversation(client, { userId: user.id, count, recent: RECENT, chunk: CHUNK, title: `${fmtInt(count)} messages` }));
  await client.query("ANALYZE");
  await client.end();

  const model = await startDemoServer();
  const next = await startNext(
    { DATABASE_URL: process.env.DATABASE_URL!, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "test", LOG_LEVEL: "silent", STRATA_DEFAULT_MODEL: "gpt-4o-mini" },
    APP_PORT,
  );
  const db = await getDb();
  const series: Series[] = SIZES.map(() => ({ page: [], firstByte: [], apiL1: [], apiL3: [], inProcessL1: [], inProcessL3: [] }));
  const shapes: Shape[] = SIZES.map(() => ({ html: "", l1Items: 0, l1Messages: 0, l3Items: 0 }));
  try {
    const blocks = seeded.map((conversation) => ({
      level1: conversation.activeCompactions.find((c) => c.level === 1)!,
      level3: conversation.activeCompactions.find((c) => c.level === 3)!,
    }));
    const childrenUrl = (id: string) => `${next.url}/api/compactions/${id}/children?limit=50`;
    const round = async (index: number, measured: boolean) => {
      const conversation = seeded[index]!;
      const { level1, level3 } = blocks[index]!;
      const into = series[index]!;
      const shape = shapes[index]!;
      const p = await timedFetch(`${next.url}/c/${conversation.id}`);
      if (p.status !== 200) throw new Error(`GET /c/<id> answered ${p.status}`);
      const a = await timedFetch(childrenUrl(level1.id));
      if (a.status !== 200) throw new Error(`children API answered ${a.status}: ${a.body.slice(0, 200)}`);
      const b = await timedFetch(childrenUrl(level3.id));
      let started = performance.now();
      await loadCompactionChildren(db, user.id, level1.id, { limit: 50 });
      const l1 = performance.now() - started;
      started = performance.now();
      await loadCompactionChildren(db, user.id, level3.id, { limit: 50 });
      const l3 = performance.now() - started;
      if (!measured) return;
      into.page.push(p.ms);
      into.firstByte.push(p.firstByteMs);
      into.apiL1.push(a.ms);
      into.apiL3.push(b.ms);
      into.inProcessL1.push(l1);
      into.inProcessL3.push(l3);
      shape.html = p.body;
      const parsed = JSON.parse(a.body) as { items: { type: string }[] };
      shape.l1Items = parsed.items.length;
      shape.l1Messages = parsed.items.filter((item) => item.type === "message").length;
      shape.l3Items = (JSON.parse(b.body) as { items: unknown[] }).items.length;
    };
    for (let i = 0; i < 5; i++) for (const index of SIZES.keys()) await round(index, false);
    for (let i = 0; i < REQUESTS; i++) for (const index of (i % 2 ? [...SIZES.keys()].reverse() : [...SIZES.keys()])) await round(index, true);

    const rows: (string | number)[][] = [];
    const verdicts: Verdict[] = [];
    for (const [index, count] of SIZES.entries()) {
      const s = series[index]!;
      const shape = shapes[index]!;
      const conversation = seeded[index]!;
      const htmlBytes = Buffer.byteLength(shape.html);
      const gzipBytes = gzipSync(shape.html).length;
      const scripts = [...shape.html.matchAll(/<script[^>]*>[\s\S]*?<\/script>/g)].map((m) => m[0]);
      const flightBytes = Buffer.byteLength(scripts.filter((tag) => tag.includes("__next_f")).join(""));
      const label = `${fmtInt(count)} msgs, ${fmtInt(conversation.compactionCount)} compactions`;
      rows.push(
        [label, "GET /c/<id> (full HTML, server-rendered)", fmt(median(s.page), 1), fmt(p95(s.page), 1), `${fmt(htmlBytes / 1024, 1)} KB (gzip ${fmt(gzipBytes / 1024, 1)} KB; RSC payload ${fmt(flightBytes / 1024, 1)} KB)`],
        [label, "GET /c/<id> first byte", fmt(median(s.firstByte), 1), fmt(p95(s.firstByte), 1), ""],
        [label, "GET /api/compactions/<L1>/children?limit=50", fmt(median(s.apiL1), 1), fmt(p95(s.apiL1), 1), `${shape.l1Items} items (${shape.l1Messages} messages)`],
        [label, "GET /api/compactions/<L3>/children?limit=50", fmt(median(s.apiL3), 1), fmt(p95(s.apiL3), 1), `${shape.l3Items} items`],
        [label, "loadCompactionChildren(L1, limit 50), in-process", fmt(median(s.inProcessL1), 2), fmt(p95(s.inProcessL1), 2), ""],
        [label, "loadCompactionChildren(L3, limit 50), in-process", fmt(median(s.inProcessL3), 2), fmt(p95(s.inProcessL3), 2), ""],
      );
      verdicts.push(
        { target: `${fmtInt(count)}: GET /c/<id> ≤ 200 ms (median)`, measured: `${fmt(median(s.page), 1)} ms`, met: median(s.page) <= 200 },
        { target: `${fmtInt(count)}: HTML ≤ 150 KB`, measured: `${fmt(htmlBytes / 1024, 1)} KB`, met: htmlBytes <= 150 * 1024 },
        { target: `${fmtInt(count)}: expand 50 originals ≤ 100 ms (HTTP, median)`, measured: `${fmt(median(s.apiL1), 1)} ms`, met: median(s.apiL1) <= 100 && shape.l1Messages === 50 },
      );
    }
    const ratio = median(series[1]!.page) / median(series[0]!.page);
    const expandRatio = median(series[1]!.apiL1) / median(series[0]!.apiL1);
    verdicts.push(
      { target: "page time t(100k) / t(10k) ≤ 1.5", measured: fmt(ratio, 2), met: ratio <= 1.5 },
      { target: "expand time t(100k) / t(10k) ≤ 1.5", measured: fmt(expandRatio, 2), met: expandRatio <= 1.5 },
    );
    const table = { headers: ["conversation", "request", "median ms", "p95 ms", "size"], rows };
    printTable(`Opening long conversations (${REQUESTS} rounds, sizes interleaved)`, table);
    printTable("Targets", verdictTable(verdicts));
    writeResults("page-cost", "Page and expansion cost of 10k- and 100k-message conversations", {
      command: "npx tsx bench/page-cost.ts",
      load: `${loadBefore} at the start; ${uptime()} at the end`,
      intro:
        `\`next start\` (production build) on loopback against PostgreSQL, requests with an API token; conversations seeded through SQL (bench/lib/seed.ts: ` +
        `level-1 summaries of ${CHUNK} messages merged into level 2 and 3, the newest ${RECENT} messages uncovered; the page shows the newest 200). ` +
        `Times measured by the client on 127.0.0.1, ${REQUESTS} rounds after 5 warm-up rounds, both sizes in every round (order alternating). HTML size is the uncompressed document.`,
      tables: [{ table }, { caption: "Targets", table: verdictTable(verdicts) }],
    });
  } finally {
    await next.stop();
    await model.close();
  }
}

runMain(main);
