// STRATA_PROCESSES=2 through `npm start` (scripts/start.mjs → scripts/processes.mjs) on
// the production build: two server processes answer on one port, GET /api/metrics
// describes the instance (every process's counters summed, whichever process answers),
// a process that dies is replaced, and SIGTERM ends them all.
// Port: PROCESSES_PORT (default 3256); database: the faults database's name + "_processes".
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetDatabase } from "../../lib/db/admin";
import { FAULTS_DATABASE_URL } from "./support/database";

const ROOT = path.resolve(__dirname, "..", "..");
const DATABASE_URL = `${FAULTS_DATABASE_URL}_processes`;
const PORT = Number(process.env.PROCESSES_PORT ?? 3256);
const BASE = `http://127.0.0.1:${PORT}`;

let server: ChildProcess;
let output = "";
let token = "";

/** A request on a connection of its own, so that the primary hands each to the next process. */
function request(method: string, route: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const call = http.request(
      `${BASE}${route}`,
      {
        method,
        agent: false,
        headers: { authorization: `Bearer ${token}`, ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    call.on("error", reject);
    call.end(payload);
  });
}

/** The server processes the primary runs now. */
function workers(): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(server.pid), "-f", "next-server"], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s:\n${output.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const healthy = () => fetch(`${BASE}/api/health`).then((response) => response.ok, () => false);

async function turn(conversationId: string, content: string): Promise<void> {
  const sent = await request("POST", `/api/conversations/${conversationId}/messages`, { content });
  expect(sent.status, sent.text.slice(0, 500)).toBe(200);
}

const completedTurns = (metrics: string) => Number(/^strata_turns_total\{outcome="complete"\} (\d+)/m.exec(metrics)?.[1] ?? 0);

beforeAll(async () => {
  await resetDatabase(DATABASE_URL);
  server = spawn(process.execPath, ["scripts/start.mjs", "-p", String(PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL, STRATA_PROCESSES: "2", BETTER_AUTH_URL: "", LOG_LEVEL: "info", NEXT_TELEMETRY_DISABLED: "1", OPENAI_API_KEY: "", OPENAI_BASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const append = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000));
  server.stdout!.on("data", append);
  server.stderr!.on("data", append);
  // The first start may build.
  await until(healthy, "npm start with two processes becoming healthy", 15 * 60_000);
  const signUp = await fetch(`${BASE}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE },
    body: JSON.stringify({ email: "processes@example.com", password: "correct horse battery staple", name: "processes" }),
  });
  expect(signUp.status).toBe(200);
  const cookie = signUp.headers.getSetCookie().map((line) => line.split(";")[0]!).find((pair) => pair.includes("session_token="))!;
  const created = await fetch(`${BASE}/api/auth/api-key/create`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE, cookie },
    body: JSON.stringify({ name: "processes" }),
  });
  token = ((await created.json()) as { key: string }).key;
}, 16 * 60_000);

afterAll(() => {
  if (server?.pid && server.exitCode == null) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

describe("several server processes on one port", () => {
  it("two processes answer; the metrics of either are the instance's, every turn counted once", async () => {
    expect(workers()).toHaveLength(2);
    const made = await request("POST", "/api/conversations", { title: "processes" });
    expect(made.status, made.text).toBe(201);
    const { id } = (JSON.parse(made.text) as { conversation: { id: string } }).conversation;
    for (let index = 0; index < 6; index++) await turn(id, `Hello number ${index + 1}`);
    // Each read is a new connection, so both processes answer some of them.
    for (let read = 0; read < 6; read++) {
      const metrics = await request("GET", "/api/metrics");
      expect(metrics.status).toBe(200);
      expect(completedTurns(metrics.text)).toBe(6);
    }
  });

  it("a process that dies is replaced, and the instance goes on answering", async () => {
    const [victim] = workers();
    process.kill(victim!, "SIGKILL");
    await until(() => workers().length === 2 && !workers().includes(victim!), "a replacement process");
    await until(healthy, "health after the replacement");
    const made = await request("POST", "/api/conversations", { title: "after the replacement" });
    expect(made.status, made.text).toBe(201);
    const { id } = (JSON.parse(made.text) as { conversation: { id: string } }).conversation;
    await turn(id, "Still there?");
    expect(output).toMatch(/exited \(code null, signal SIGKILL\); starting another/);
  });

  it("SIGTERM ends every process and the primary exits cleanly", async () => {
    const before = workers();
    expect(before).toHaveLength(2);
    // The replacement of the last test may still be starting: until its drain is installed a
    // SIGTERM ends it without one (it has no turns to drain then). Both must have started.
    const started = (pid: number) => new RegExp(`"pid":${pid}[,}][^\n]*"msg":"server process started"`).test(output);
    await until(() => before.every(started), "both processes started");
    // "close", not "exit": the workers write to the same pipe, and what the last of them wrote
    // just before it exited may still be unread when the primary's "exit" arrives.
    const exited = new Promise<number | null>((resolve) => server.once("close", (code) => resolve(code)));
    process.kill(server.pid!, "SIGTERM");
    const stalled = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still running 60 s after SIGTERM (processes: ${workers().join(", ")}):\n${output.slice(-3000)}`)), 60_000).unref(),
    );
    expect(await Promise.race([exited, stalled])).toBe(0);
    for (const pid of before) expect(() => process.kill(pid, 0)).toThrow();
    // Each drained its turns first (lib/server/start.ts).
    expect(output.match(/"msg":"SIGTERM: drained"/g), output.slice(-3000)).toHaveLength(2);
  });
});
