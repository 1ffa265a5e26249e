// The newcomer's path of the README: `npm start` with nothing configured (embedded
// PostgreSQL, the built-in demo model), the page opened at 127.0.0.1 rather than
// localhost, the first account signed up through the form and one turn sent from the
// home page's composer. A page that renders but never hydrates fails here: the form
// and the composer do nothing without the client's scripts. Then SIGTERM to npm alone,
// as a container whose main process is `npm start` gets it: the server drains and exits.
// Port: NEWCOMER_PORT (default 3253); the build is the one in .next (`npm start`
// builds when it is missing or stale).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");
const PORT = Number(process.env.NEWCOMER_PORT ?? 3253);
const URL_BASE = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "strata-newcomer-"));
let server: ChildProcess;
let browser: Browser;
let output = "";

beforeAll(async () => {
  // What a newcomer has: none of the variables this suite sets for its other files.
  const env: NodeJS.ProcessEnv = { ...process.env, STRATA_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "info" };
  for (const name of ["DATABASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "STRATA_DEFAULT_MODEL", "BETTER_AUTH_URL", "BETTER_AUTH_SECRET"]) delete env[name];
  server = spawn("npm", ["start", "--", "-p", String(PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that afterAll can stop whatever is left of it.
    detached: true,
  });
  const append = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-50_000));
  server.stdout!.on("data", append);
  server.stderr!.on("data", append);
  const deadline = Date.now() + 15 * 60_000; // the first start may build
  while (!(await fetch(`${URL_BASE}/api/health`).then((r) => r.ok, () => false))) {
    if (server.exitCode != null || Date.now() > deadline) throw new Error(`npm start did not become healthy:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
}, 16 * 60_000);

/** Resolves once nothing answers on the port any more. */
async function untilDown(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (await fetch(`${URL_BASE}/api/health`).then(() => true, () => false)) {
    if (Date.now() > deadline) throw new Error(`the server still answers:\n${output.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

afterAll(async () => {
  await browser?.close();
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await untilDown(30_000).catch(() => process.kill(-server.pid!, "SIGKILL"));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the newcomer's path", () => {
  it("npm start with nothing configured: sign up and one turn through the browser at 127.0.0.1", async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("response", (response) => {
      if (response.url().includes("/_next/") && response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });

    // The first visit shows the one sign-up form; the first account becomes the admin.
    await page.goto(`${URL_BASE}/`);
    await page.getByTestId("auth-email").fill("newcomer@example.com");
    await page.getByTestId("auth-password").fill("a newcomer's passphrase");
    await page.getByTestId("auth-submit").click();
    await page.getByTestId("signed-in-as").filter({ hasText: "newcomer@example.com" }).waitFor({ timeout: 30_000 });

    // The home page's composer: the first message creates the conversation and is answered there.
    await page.getByTestId("composer").fill("Hello from a fresh start");
    await page.getByTestId("composer").press("Enter");
    await page.waitForURL(/\/c\/[0-9a-f-]+$/, { timeout: 30_000 });
    const reply = page.locator('[data-testid=message][data-role=assistant][data-seq="2"]');
    await reply.filter({ hasText: "you said" }).waitFor({ timeout: 30_000 });

    expect(new URL(page.url()).host).toBe(`127.0.0.1:${PORT}`);
    expect(await reply.textContent()).toContain("Hello from a fresh start");
    expect(await page.locator('[data-testid=message][data-role=user][data-seq="1"]').textContent()).toContain("Hello from a fresh start");
    expect(problems).toEqual([]);
  }, 120_000);

  it("SIGTERM to npm alone (a container's main process) reaches the server, which drains and exits", async () => {
    const npmExited = new Promise((resolve) => (server.exitCode != null ? resolve(null) : server.on("exit", resolve)));
    // A client that goes on asking on its kept-alive connection while the server drains,
    // as an open tab polls: the server must still exit, without opening its database again.
    let exited = false;
    void npmExited.then(() => (exited = true));
    const polling = (async () => {
      while (!exited) {
        await fetch(`${URL_BASE}/api/health`).then((response) => response.text(), () => null);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    server.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      npmExited,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`npm did not exit within 30 s:\n${output.slice(-3000)}`)), 30_000))),
    ]).finally(() => clearTimeout(timer));
    // The server behind npm stops listening; a signal lost on the way would leave it serving.
    await untilDown(30_000);
    await polling;
    expect(output).toContain('"msg":"SIGTERM: drained"');
    expect(output.split('"msg":"embedded PostgreSQL (PGlite) ready"').length - 1).toBe(1);
  }, 60_000);
});
