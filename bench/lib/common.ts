// Shared benchmark plumbing: database reset, statistics, machine facts, tables and
// the append-only results file (docs/benchmarks.md).
import { execSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const RESULTS_FILE = path.join(ROOT, "docs", "benchmarks.md");

export { resetDatabase } from "../../lib/db/admin";

// ---- statistics ----

export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

export const median = (values: number[]) => quantile(values, 0.5);
export const p95 = (values: number[]) => quantile(values, 0.95);

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export function fmt(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return String(value);
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function fmtInt(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

// ---- reporting ----

export type Table = { headers: string[]; rows: (string | number)[][] };

export function markdownTable(table: Table): string {
  const cells = (row: (string | number)[]) => `| ${row.map((cell) => String(cell)).join(" | ")} |`;
  return [cells(table.headers), cells(table.headers.map(() => "---")), ...table.rows.map(cells)].join("\n");
}

export function printTable(title: string, table: Table): void {
  const all = [table.headers, ...table.rows.map((row) => row.map(String))];
  const widths = table.headers.map((_, i) => Math.max(...all.map((row) => String(row[i] ?? "").length)));
  const line = (row: (string | number)[]) => row.map((cell, i) => String(cell).padEnd(widths[i]!)).join("  ");
  console.log(`\n${title}`);
  console.log(line(table.headers));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of table.rows) console.log(line(row));
}

export function machine(): { cpu: string; cores: number; ramGb: number; node: string; commit: string; date: string; load: string } {
  let commit = "unknown";
  try {
    commit = execSync("git rev-parse --short HEAD", { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    // The results file itself changes with every benchmark of a run: not a code change.
    const dirty = execSync("git status --porcelain -- . ':!docs/benchmarks.md' ':!docs/*.svg'", { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    if (dirty) commit += " (working tree modified)";
  } catch {
    // not a git checkout
  }
  return {
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    cores: os.cpus().length,
    ramGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    commit,
    date: new Date().toISOString(),
    load: os.loadavg().map((l) => l.toFixed(2)).join(" / "),
  };
}

export type Verdict = { target: string; measured: string; met: boolean; note?: string | undefined };

export function verdictTable(verdicts: Verdict[]): Table {
  return {
    headers: ["target", "measured", "met?"],
    rows: verdicts.map((v) => [v.target, v.measured, v.met ? "yes" : `**NO**${v.note ? ` — ${v.note}` : ""}`]),
  };
}

export type ResultsBody = {
  /** How to run it again; defaults to `npx tsx bench/<script>.ts`. */
  command?: string;
  /** Machine load as measured by the benchmark (e.g. `uptime` before and after). */
  load?: string;
  intro?: string;
  tables: { caption?: string; table: Table }[];
  notes?: string[];
};

const HEADER = [
  "# Strata benchmarks",
  "",
  "Produced by `npm run bench` (`tsx bench/run-all.ts`); each benchmark also runs alone (the command is in its section).",
  "This file holds the latest run of each benchmark only; earlier runs are in git history",
  "(`git log -p docs/benchmarks.md`), where every figure stays with the commit it measured.",
  "Timings come from a shared 2-core machine, so every benchmark measures Strata and its baseline interleaved in",
  "the same run and reports ratios; absolute times alone mean little. A commit marked *(working tree modified)*",
  "was not a clean checkout: its figures describe uncommitted code.",
  "",
].join("\n");
const scriptName = () => (process.argv[1] ?? "bench").replace(/^.*\//, "").replace(/\.ts$/, "");

/**
 * Records one benchmark run in docs/benchmarks.md: its section (command, commit,
 * machine, load, figures) replaces the benchmark's previous one in place. Earlier runs
 * live in git history, with the commit they measured, rather than in an ever-growing file.
 */
export function writeResults(id: string, title: string, body: ResultsBody): void {
  const m = machine();
  const parts = [
    `<!-- latest:${id} -->`,
    `## ${title}`,
    "",
    `- command: \`${body.command ?? `npx tsx bench/${scriptName()}.ts`}\``,
    `- date: ${m.date} · commit: \`${m.commit}\``,
    `- machine: ${m.cpu}, ${m.cores} cores, ${m.ramGb} GB RAM, Node ${m.node}; ${body.load ?? `load average at the end: ${m.load}`} (shared machine)`,
    "",
  ];
  if (body.intro) parts.push(body.intro, "");
  for (const { caption, table } of body.tables) {
    if (caption) parts.push(`**${caption}**`, "");
    parts.push(markdownTable(table), "");
  }
  for (const note of body.notes ?? []) parts.push(`- ${note}`);
  if (body.notes?.length) parts.push("");
  parts.push(`<!-- end:${id} -->`);
  const section = parts.join("\n");
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  const text = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, "utf8") : HEADER;
  const open = `<!-- latest:${id} -->`;
  const close = `<!-- end:${id} -->`;
  const from = text.indexOf(open);
  const to = text.indexOf(close);
  const next =
    from >= 0 && to > from ? `${text.slice(0, from)}${section}${text.slice(to + close.length)}` : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(RESULTS_FILE, next);
}

/** Older benchmarks' entry point: their section goes in under the script's name. */
export function appendResults(title: string, body: ResultsBody): void {
  writeResults(scriptName(), title, body);
}

/** Runs `main`, closes the database and exits with its status (benchmarks are scripts). */
export function runMain(main: () => Promise<boolean | void>): void {
  main()
    .then(async (ok) => {
      const { closeDb } = await import("../../lib/db/client");
      await closeDb().catch(() => undefined);
      process.exit(ok === false ? 1 : 0);
    })
    .catch(async (error: unknown) => {
      console.error(error);
      process.exit(2);
    });
}

export { seededRandom } from "../../lib/random";
