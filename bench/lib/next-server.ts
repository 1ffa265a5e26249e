// A production build of the app for the page-cost and load benchmarks, made in a
// PRIVATE copy of the sources (os.tmpdir()/strata-bench-next) so it never touches the
// repository's .next while other engineers build or run `next dev` there. The copy is
// rebuilt when any source file changed (fingerprint of paths, sizes and mtimes).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./common";

// One build folder per checkout: engineers benchmarking in other worktrees never share (or clobber) it.
export const BUILD_DIR =
  process.env.BENCH_NEXT_DIR ?? path.join(os.tmpdir(), `strata-bench-next-${createHash("sha256").update(ROOT).digest("hex").slice(0, 8)}`);
const SOURCES = ["app", "components", "lib", "public", "prisma"];
// proxy.ts and instrumentation.ts too: without them the build would answer without the checks and
// headers of every page request, and start without the background queue and drain.
const FILES = ["next.config.ts", "proxy.ts", "instrumentation.ts", "package.json", "tsconfig.json", "postcss.config.mjs"];
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
}

export function fingerprint(): string {
  const files: string[] = [];
  for (const dir of SOURCES) walk(path.join(ROOT, dir), files);
  for (const file of FILES) if (existsSync(path.join(ROOT, file))) files.push(path.join(ROOT, file));
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    const stat = statSync(file);
    hash.update(`${path.relative(ROOT, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest("hex");
}

/** Builds (if stale) and returns the directory to run `next start` in. */
export function ensureBuild(log: (line: string) => void = console.log): { dir: string; built: boolean; seconds: number } {
  const print = fingerprint();
  const stamp = path.join(BUILD_DIR, ".strata-fingerprint");
  if (existsSync(path.join(BUILD_DIR, ".next", "BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8") === print) {
    return { dir: BUILD_DIR, built: false, seconds: 0 };
  }
  const started = performance.now();
  log(`building the app in ${BUILD_DIR} (sources changed since the last benchmark build) …`);
  mkdirSync(BUILD_DIR, { recursive: true });
  for (const dir of [...SOURCES, ".next"]) rmSync(path.join(BUILD_DIR, dir), { recursive: true, force: true });
  for (const dir of SOURCES) if (existsSync(path.join(ROOT, dir))) cpSync(path.join(ROOT, dir), path.join(BUILD_DIR, dir), { recursive: true });
  for (const file of FILES) if (existsSync(path.join(ROOT, file))) cpSync(path.join(ROOT, file), path.join(BUILD_DIR, file === "next.config.ts" ? "next.config.base.ts" : file));
  // node_modules is a symlink into the repository; Turbopack needs a root containing both.
  writeFileSync(
    path.join(BUILD_DIR, "next.config.ts"),
    'import type { NextConfig } from "next";\nimport base from "./next.config.base";\nconst config: NextConfig = { ...base, turbopack: { ...(base.turbopack ?? {}), root: "/" } };\nexport default config;\n',
  );
  if (!existsSync(path.join(BUILD_DIR, "node_modules"))) symlinkSync(path.join(ROOT, "node_modules"), path.join(BUILD_DIR, "node_modules"));
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: BUILD_DIR,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}\n${result.stderr ?? ""}`.trim().split("\n").slice(-40).join("\n");
    throw new Error(`next build failed (the UI may be mid-edit; retry later):\n${output}`);
  }
  writeFileSync(stamp, print);
  return { dir: BUILD_DIR, built: true, seconds: (performance.now() - started) / 1000 };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type RunningNext = { url: string; child: ChildProcess; stop: () => Promise<void>; output: () => string };

/**
 * `next start` on 127.0.0.1:<port> (a free one unless given) with the given environment and
 * extra Node flags (e.g. --cpu-prof, which NODE_OPTIONS refuses); resolves when it answers.
 */
export async function startNext(env: Record<string, string>, fixedPort?: number, nodeArgs: string[] = []): Promise<RunningNext> {
  const port = fixedPort ?? (await freePort());
  const startArgs = ["start", "-p", String(port), "-H", "127.0.0.1"];
  // STRATA_PROCESSES above 1: as `npm start` runs them, through scripts/processes.mjs.
  const processes = Number(env.STRATA_PROCESSES ?? 1);
  const command =
    processes > 1
      ? [
          "--input-type=module",
          "-e",
          `const { runProcesses } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, "scripts", "processes.mjs")).href)});
           runProcesses({ count: ${processes}, exec: ${JSON.stringify(NEXT_BIN)}, args: ${JSON.stringify(startArgs)} });`,
        ]
      : [NEXT_BIN, ...startArgs];
  const child = spawn(process.execPath, [...nodeArgs, ...command], {
    cwd: BUILD_DIR,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode != null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    try {
      // Public and cheap: better-auth's health endpoint.
      const response = await fetch(`${url}/api/auth/ok`);
      if (response.ok) break;
      // Listening but failing: no point waiting for the deadline.
      if (response.status >= 500) {
        child.kill("SIGKILL");
        throw new Error(`next start answers ${response.status} on /api/auth/ok:\n${output.slice(-3000)}`);
      }
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("next start answers")) throw error;
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`next start did not answer within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode != null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });
  return { url, child, stop, output: () => output };
}
