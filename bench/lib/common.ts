// Shared benchmark plumbing: database reset, statistics, machine facts, tables and
// the append-only results file (docs/benchmarks.md).
import { execSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
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

export function nowMs(): number {
  return performance.now();
}

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
    const dirty = execSync("git status --porcelain", { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
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

export type Verdict = { target: string; measured: string; met: boolean; note?: string };

export function verdictTable(verdicts: Verdict[]): Table {
  return {
    headers: ["target", "measured", "met?"],
    rows: verdicts.map((v) => [v.target, v.measured, v.met ? "yes" : `**NO**${v.note ? ` — ${v.note}` : ""}`]),
  };
}

/**
 * Appends one benchmark's section to docs/benchmarks.md: machine, date, commit and the
 * figures. Never rewrites earlier runs.
 */
export function appendResults(title: string, body: { intro?: string; tables: { caption?: string; table: Table }[]; notes?: string[] }): void {
  const m = machine();
  const parts = [
    `\n## ${title}`,
    "",
    `- date: ${m.date} · commit: \`${m.commit}\``,
    `- machine: ${m.cpu}, ${m.cores} cores, ${m.ramGb} GB RAM, Node ${m.node}; load average at the end: ${m.load} (shared machine)`,
    "",
  ];
  if (body.intro) parts.push(body.intro, "");
  for (const { caption, table } of body.tables) {
    if (caption) parts.push(`**${caption}**`, "");
    parts.push(markdownTable(table), "");
  }
  for (const note of body.notes ?? []) parts.push(`- ${note}`);
  if (body.notes?.length) parts.push("");
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  if (!existsSync(RESULTS_FILE)) {
    writeFileSync(
      RESULTS_FILE,
      [
        "# Strata benchmarks",
        "",
        "Produced by `npm run bench` (`tsx bench/run-all.ts`); each benchmark also runs alone with `npx tsx bench/<name>.ts`",
        "and APPENDS its section below (newest last). Timings come from a shared 2-core machine, so every benchmark",
        "reports medians and ratios measured side by side in the same run; absolute times alone mean little.",
        "",
      ].join("\n"),
    );
  }
  appendFileSync(RESULTS_FILE, `${parts.join("\n")}\n`);
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
