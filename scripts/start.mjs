// `npm start`: the production path. Builds when the current build does not match
// the source (or there is none), then runs `next start` with the given arguments.
// "Matches" means: the SHA-256 of every file the build reads (source, config, lock
// file, schema), recorded in .next/strata-source.sha256 after a successful build.
// Contents, not mtimes, so a checkout that touches files without changing them does
// not rebuild, and a change of a single byte does.
import "./require-node.mjs";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";

const root = path.resolve(import.meta.dirname, "..");
const SOURCES = [
  "app", "components", "lib", "prisma", "public",
  "proxy.ts", "instrumentation.ts", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "package.json", "package-lock.json",
];
// Generated from prisma/ by the build itself.
const SKIP = new Set([path.join("lib", "db", "generated")]);
const STAMP = path.join(root, ".next", "strata-source.sha256");

function* files(relative) {
  if (SKIP.has(relative)) return;
  const absolute = path.join(root, relative);
  if (!existsSync(absolute)) return;
  if (statSync(absolute).isDirectory()) {
    for (const name of readdirSync(absolute).sort()) yield* files(path.join(relative, name));
  } else {
    yield relative;
  }
}

export function sourceFingerprint() {
  const hash = createHash("sha256");
  for (const source of SOURCES) {
    for (const file of files(source)) {
      hash.update(file).update("\0").update(readFileSync(path.join(root, file))).update("\0");
    }
  }
  return hash.digest("hex");
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * The configuration check of instrumentation.ts, made before anything else: a value out
 * of range must stop the start at once, not after a build of several minutes. The
 * environment is the one `next start` will see (the shell's, then the .env files).
 * Without tsx (an install without dev dependencies, which cannot build either) the
 * check is left to the server's start.
 */
async function checkConfig() {
  let tsImport;
  try {
    ({ tsImport } = await import("tsx/esm/api"));
  } catch {
    return null;
  }
  const { loadEnvConfig } = (await import("@next/env")).default;
  const { combinedEnv } = loadEnvConfig(root, false, { info: () => undefined, error: console.error });
  const { parseConfig, ConfigError } = await tsImport("../lib/config.ts", import.meta.url);
  try {
    return parseConfig(combinedEnv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Strata cannot start. ${error.message}`);
    process.exit(1);
  }
}

const fingerprint = sourceFingerprint();
// `npm run build` ends with this: any build made through it counts as current.
if (process.argv[2] === "--record-build") {
  writeFileSync(STAMP, `${fingerprint}\n`);
  process.exit(0);
}
const checked = await checkConfig();
const built = existsSync(path.join(root, ".next", "BUILD_ID")) && existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === fingerprint;
if (built) {
  console.log("strata: the build in .next matches the source; starting it");
} else {
  console.log("strata: no build of this source yet; building (npm run build)");
  run("npm", ["run", "build"]);
  // The source as it was when the build began (a file saved during the build makes the next start rebuild).
  writeFileSync(STAMP, `${fingerprint}\n`);
}
const nextBin = path.join(root, "node_modules", ".bin", "next");
// Without tsx the check was left to the server; the count is read the same way.
const processes = checked?.STRATA_PROCESSES ?? (Number(process.env.STRATA_PROCESSES) || 1);
if (processes > 1) {
  const { runProcesses } = await import("./processes.mjs");
  // The workers start where `next start` would: in the project.
  process.chdir(root);
  runProcesses({ count: processes, exec: path.join(root, "node_modules", "next", "dist", "bin", "next"), args: ["start", ...process.argv.slice(2)] });
} else {
  startOne();
}

// The server runs as a child that gets our SIGTERM/SIGINT, so a process manager's
// stop reaches Next (and its graceful shutdown, instrumentation.ts) unchanged. npm
// passes a SIGTERM only to the shell running the script, which dies without passing
// it on: hence `exec` in package.json's "start", so that this process is that shell.
function startOne() {
  const server = spawn(nextBin, ["start", ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
