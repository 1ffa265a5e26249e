// Starting the server with an invalid variable stops it with a message naming the
// variable and what it accepts (instrumentation.ts's register(), which Next runs
// before serving anything; here run on its own, in a child process like the server).
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");

function register(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "-e", "import('./instrumentation.ts').then((m) => m.register())"], {
      cwd: ROOT,
      env: { ...process.env, NEXT_RUNTIME: "nodejs", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stderr }));
  });
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
