// Starting the server with an invalid variable stops it with a message naming the
// variable and what it accepts: instrumentation.ts's register(), which Next runs
// before serving anything (here run on its own, in a child process like the server),
// and `npm start` (scripts/start.mjs), which checks before it builds or starts Next.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // Its own process group, so a build it should not have started dies with it.
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // Should it go on to build or serve, the test fails on its output, not on a hang.
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 20_000);
    child.on("error", reject);
    // "close": by "exit" the last of its output may still be unread.
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function register(env: Record<string, string>) {
  return run(["--import", "tsx", "-e", "import('./instrumentation.ts').then((m) => m.register())"], { NEXT_RUNTIME: "nodejs", ...env });
}

describe("start with an invalid configuration", () => {
  it("exits non-zero naming the variable and the accepted range", async () => {
    const { code, stderr } = await register({ STRATA_MAX_BODY_BYTES: "1mb", STRATA_MODEL_TIMEOUT_MS: "0" });
    expect(code).toBe(1);
    expect(stderr).toContain("Strata cannot start. Invalid configuration:");
    expect(stderr).toContain('STRATA_MAX_BODY_BYTES must be a whole number from 1,024 to 104,857,600 (got "1mb")');
    expect(stderr).toContain('STRATA_MODEL_TIMEOUT_MS must be a whole number from 1,000 to 3,600,000 (got "0")');
  });
});

describe("npm start with an invalid configuration", () => {
  it("stops before building or starting Next, naming the variable and the accepted range", async () => {
    const { code, stdout, stderr } = await run(["scripts/start.mjs", "-p", "0", "-H", "127.0.0.1"], { STRATA_SIGNUPS: "maybe" });
    expect(stderr).toContain('Strata cannot start. Invalid configuration:\n  - STRATA_SIGNUPS must be one of: open, closed (got "maybe")');
    expect(code).toBe(1);
    // Neither "strata: … building" nor "… starting it", nor Next's banner.
    expect(stdout).not.toMatch(/strata: |Next\.js/);
  });
});
