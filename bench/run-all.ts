// `npm run bench`: every benchmark in sequence, each in its own process (own database,
// own test server), latest results at the top of docs/benchmarks.md. Pass names to run a subset:
//   npx tsx bench/run-all.ts [tokens long-conversation ...]
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT } from "./lib/common";

const ALL = ["turn-overhead", "compaction-latency", "token-economy", "agent-session", "page-cost", "search", "engine-matrix", "tokens", "long-runs", "long-conversation", "load", "concurrency", "concurrency-action"];
// Runs of one script with other options: [script, ...arguments]. One instance of the
// 2-core machine runs a server process per core (STRATA_PROCESSES=2), as docs/operations.md advises.
const VARIANTS: Record<string, string[]> = {
  concurrency: ["concurrency", "--processes", "2"],
  "concurrency-action": ["concurrency", "--via", "action", "--processes", "2"],
};
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
const failed: string[] = [];
const started = performance.now();
const dirty = spawnSync("git", ["status", "--porcelain", "--", ".", ":!docs/benchmarks.md", ":!docs/*.svg"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
if (dirty) console.warn("warning: the working tree has uncommitted changes; the results will say so (commit first for figures that describe a commit)");
for (const name of chosen) {
  if (!ALL.includes(name)) {
    console.error(`unknown benchmark "${name}" (known: ${ALL.join(", ")})`);
    process.exit(2);
  }
  console.log(`\n=== ${name} ===`);
  const [script, ...args] = VARIANTS[name] ?? [name];
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "bench", `${script}.ts`), ...args], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) failed.push(`${name} (exit ${result.status ?? result.signal})`);
}
console.log(`\nbenchmarks done in ${((performance.now() - started) / 60_000).toFixed(1)} min; latest results at the top of docs/benchmarks.md`);
if (failed.length) {
  console.error(`failed to run: ${failed.join(", ")}`);
  process.exit(1);
}
