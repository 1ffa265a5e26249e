// Benchmark — full-text search and export (issue 12), in process on real PostgreSQL:
//   - searchHistory p50/p95 over 100,000 messages (10 conversations of 10,000 with their
//     compaction trees) for a rare word, a common word, a phrase and a scoped query;
//   - export of one 10,000-message conversation: JSON document, serialized file and
//     Markdown, with time and memory (heap growth and peak RSS).
// Also run by `npm run bench` (bench/run-all.ts).
//
//   npx tsx bench/search.ts [--queries 40]
import "./lib/env";
import pg from "pg";
import { appendResults, fmt, fmtInt, median, p95, printTable, resetDatabase, runMain } from "./lib/common";
import { seedConversation } from "./lib/seed";
import { benchUser } from "./lib/user";
import { getDb } from "../lib/db/client";
import { searchHistory } from "../lib/db/search";
import { exportConversation, exportMarkdown } from "../lib/db/export";

const queriesArg = Number(process.argv[process.argv.indexOf("--queries") + 1]);
const QUERIES = process.argv.includes("--queries") && queriesArg > 0 ? queriesArg : 40;
const CONVERSATIONS = 10;
const PER_CONVERSATION = 10_000;
const RARE = "zeppelinite";

async function main() {
  await resetDatabase(process.env.DATABASE_URL!);
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const user = await benchUser();
  const seedStarted = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < CONVERSATIONS; i++) {
    ids.push((await seedConversation(client, { userId: user.id, count: PER_CONVERSATION, title: `Seeded ${i + 1}` })).id);
  }
  // A word in 20 messages only (the needle), spread over the conversations.
  await client.query(
    `UPDATE "Message" SET content = content || ' ${RARE}' WHERE id IN (SELECT id FROM "Message" ORDER BY md5(id) LIMIT 20)`,
  );
  await client.query("ANALYZE");
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const [{ count }] = (await client.query<{ count: string }>(`SELECT count(*) FROM "Message"`)).rows as [{ count: string }];
  const [{ common }] = (
    await client.query<{ common: string }>(`SELECT split_part(content, ' ', 1) AS common FROM "Message" WHERE role = 'user' LIMIT 1`)
  ).rows as [{ common: string }];
  const [{ phrase }] = (
    await client.query<{ phrase: string }>(`SELECT split_part(content, ' ', 2) || ' ' || split_part(content, ' ', 3) AS phrase FROM "Message" WHERE role = 'user' LIMIT 1`)
  ).rows as [{ phrase: string }];
  await client.end();

  const db = await getDb();
  const cases: { label: string; query: string; conversationId?: string }[] = [
    { label: `rare word (20 hits)`, query: RARE },
    { label: `common word "${common}"`, query: common },
    { label: `phrase "${phrase}"`, query: `"${phrase}"` },
    { label: `common word, one conversation`, query: common, conversationId: ids[0]! },
  ];
  const rows: (string | number)[][] = [];
  for (const c of cases) {
    const options = { limit: 20, ...(c.conversationId ? { conversationId: c.conversationId } : {}) };
    for (let i = 0; i < 3; i++) await searchHistory(db, user.id, c.query, options);
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < QUERIES; i++) {
      const started = performance.now();
      hits = (await searchHistory(db, user.id, c.query, options)).length;
      times.push(performance.now() - started);
    }
    rows.push([c.label, hits, fmt(median(times), 1), fmt(p95(times), 1)]);
  }
  const searchTable = { headers: ["query", "hits returned (limit 20)", "p50 ms", "p95 ms"], rows };
  printTable(`search over ${fmtInt(Number(count))} messages`, searchTable);

  // Export of one 10,000-message conversation.
  const exportRows: (string | number)[][] = [];
  for (let run = 0; run < 3; run++) {
    const heapBefore = process.memoryUsage().heapUsed;
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
    const started = performance.now();
    const doc = await exportConversation(db, user.id, ids[0]!);
    const documentMs = performance.now() - started;
    const json = JSON.stringify(doc, null, 2);
    const jsonMs = performance.now() - started;
    const markdown = await exportMarkdown(doc);
    const markdownMs = performance.now() - started - jsonMs;
    const heapAfter = process.memoryUsage().heapUsed;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    exportRows.push([
      run + 1,
      fmt(documentMs, 0),
      fmt(jsonMs, 0),
      fmt(markdownMs, 0),
      `${fmt(Buffer.byteLength(json) / 1e6, 1)} MB`,
      `${fmt(Buffer.byteLength(markdown) / 1e6, 1)} MB`,
      `${fmt((heapAfter - heapBefore) / 1e6, 0)} MB`,
      `${fmt(peakRss / 1e6, 0)} MB`,
    ]);
  }
  const exportTable = {
    headers: ["run", "read + build ms", "+ JSON text ms", "Markdown ms", "JSON size", "Markdown size", "heap growth", "peak RSS"],
    rows: exportRows,
  };
  printTable("export of a 10,000-message conversation", exportTable);

  appendResults("Search and export", {
    intro: `\`npx tsx bench/search.ts\` — ${fmtInt(Number(count))} messages in ${CONVERSATIONS} conversations with their compaction trees (seeded in ${fmt(seedSeconds, 0)} s), searched in process through lib/db/search.ts (websearch_to_tsquery over the generated tsvector columns, GIN indexes, ts_rank, ts_headline for the 20 kept rows); ${QUERIES} timed queries per case after 3 warm-ups.`,
    tables: [
      { caption: "Search", table: searchTable },
      { caption: "Export of one 10,000-message conversation (lib/db/export.ts)", table: exportTable },
    ],
    notes: [
      "Seeded contents repeat a pool of ~190 texts, so a common word matches tens of thousands of rows: ts_rank is computed for every match before the limit — the worst case of this design.",
      "Heap growth is measured without forcing a collection; peak RSS is sampled every 5 ms during the export.",
    ],
  });
}

runMain(main);
