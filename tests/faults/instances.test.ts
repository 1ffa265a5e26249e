// Two production instances (`npm start` → next start) on two ports over ONE
// PostgreSQL database, with the background queue (pg-boss), the cross-instance stop
// and the summary lease in play:
//  1. 2 × 50 concurrent sends to one conversation, split across the instances (a send
//     refused as "busy" is retried, as a client would): one turn at a time across both
//     (question, answer, question, …), contiguous sequence numbers, every compaction saved
//     exactly once (no overlapping active ones), and exactly one summary call per
//     compaction as counted at the model server. Figures go to docs/benchmarks.md.
//  2. "stop" sent to B ends a turn streaming on A within 2 s, the partial reply saved.
//  3. SIGKILL of the instance running a background compaction: the other completes it.
//  4. SIGTERM of an instance with a turn streaming: the partial reply is saved, then it exits.
// Ports: MULTI_APP_PORT (default 3250) and the next one, MULTI_MODEL_PORT (4150);
// database: MULTI_DATABASE_URL (default: the faults database's name + "_multi").
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { resetDatabase } from "../../lib/db/admin";
import { startTestServer, type TestServer } from "../support/test-model";
import { FAULTS_DATABASE_URL } from "./support/database";
import { SMALL_WINDOW } from "./support/settings";

const ROOT = path.resolve(__dirname, "..", "..");
const DATABASE_URL = process.env.MULTI_DATABASE_URL ?? `${FAULTS_DATABASE_URL}_multi`;
const APP_PORT = Number(process.env.MULTI_APP_PORT ?? 3250);
const MODEL_PORT = Number(process.env.MULTI_MODEL_PORT ?? 4150);
const SENDS_PER_INSTANCE = Number(process.env.MULTI_SENDS ?? 50);
const PASSWORD = "correct horse battery staple";

type Instance = { name: string; url: string; child: ChildProcess; log: () => string; exited: Promise<number | null> };

/** SIGKILL of the whole instance (npm start's wrapper and the Next server), like a machine dying. */
function crash(instance: Instance): void {
  try {
    process.kill(-instance.child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

let model: TestServer;
let db: pg.Client;
let token = "";
const instances: Instance[] = [];

function startInstance(name: string, port: number): Promise<Instance> {
  const child = spawn(process.execPath, ["scripts/start.mjs", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "test",
      STRATA_DEFAULT_MODEL: "gpt-4o-mini",
      BETTER_AUTH_SECRET: "multi-instance-test-secret-0123456789abcdef",
      LOG_LEVEL: "info",
      STRATA_MESSAGE_RATE_LIMIT: "0",
      STRATA_SHUTDOWN_GRACE_MS: "8000",
      // The product's default turn lease, not the 1.5 s this suite's env.ts sets for the
      // crash test's children: renewed every 500 ms, a lease that short ran out on a
      // loaded machine in the middle of a turn, and a second turn was let in.
      STRATA_TURN_LEASE_MS: "30000",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: a "crash" kills the wrapper and the server in it at once.
    detached: true,
  });
  let output = "";
  const append = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000));
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  return (async () => {
    const deadline = Date.now() + 15 * 60_000; // the first start may build
    for (;;) {
      if (child.exitCode != null) throw new Error(`${name} exited with ${child.exitCode}:\n${output.slice(-4000)}`);
      const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`${name} did not become healthy:\n${output.slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return { name, url, child, log: () => output, exited };
  })();
}

function api(instance: Instance, route: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${instance.url}${route}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

async function createConversation(instance: Instance, title: string): Promise<string> {
  const response = await api(instance, "/api/conversations", { method: "POST", body: { title, model: "gpt-4o-mini" } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { conversation: { id: string } }).conversation.id;
}

/**
 * One send as a client would make it: a "busy" refusal (another turn holds the
 * conversation, on either instance) is retried after a short pause. `ms` is the whole
 * wait, refusals included; `refused` counts them.
 */
async function turn(instance: Instance, conversationId: string, content: string): Promise<{ ok: boolean; ms: number; refused: number; error?: string }> {
  const started = performance.now();
  for (let refused = 0; ; refused++) {
    const response = await api(instance, `/api/conversations/${conversationId}/messages`, { method: "POST", body: { content, stream: false } });
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string } | string | null };
    if (response.status === 409 && typeof body.error === "object" && body.error?.code === "busy") {
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
      continue;
    }
    const ms = performance.now() - started;
    if (response.status !== 200 || body.error) return { ok: false, ms, refused, error: `${instance.name}: HTTP ${response.status} ${JSON.stringify(body.error)}` };
    return { ok: true, ms, refused };
  }
}

/** Jobs of the conversation this instance has started and not finished (from its log). */
function jobsRunning(instance: Instance, conversationId: string): number {
  const lines = instance.log().split("\n").filter((line) => line.includes(conversationId));
  const count = (message: string) => lines.filter((line) => line.includes(`"msg":"${message}"`)).length;
  return count("background compaction job started") - count("background compaction job done") - count("background compaction job failed; pg-boss retries it");
}

function summaryCalls(): number {
  return model.requests.filter((request) => request.kind === "summary").length;
}

async function integrity(conversationId: string) {
  const { rows: messages } = await db.query<{ seq: number }>('SELECT seq FROM "Message" WHERE "conversationId" = $1 ORDER BY seq', [conversationId]);
  const { rows: compactions } = await db.query<{ id: string; kind: string; fromSeq: number; toSeq: number; active: boolean }>(
    'SELECT id, kind, "fromSeq", "toSeq", ("supersededById" IS NULL AND "undoneAt" IS NULL) AS active FROM "Compaction" WHERE "conversationId" = $1',
    [conversationId],
  );
  const active = compactions.filter((c) => c.active).sort((a, b) => a.fromSeq - b.fromSeq);
  const overlaps = active.filter((c, i) => i > 0 && c.fromSeq <= active[i - 1]!.toSeq).length;
  return {
    contiguous: messages.every((m, i) => m.seq === i + 1),
    messages: messages.length,
    summaries: compactions.filter((c) => c.kind === "summary").length,
    overlaps,
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Opens a streaming turn and resolves when its first text arrives; `ended` when the stream closes. */
async function streamingTurn(instance: Instance, conversationId: string, words: number) {
  const response = await api(instance, `/api/conversations/${conversationId}/messages`, {
    method: "POST",
    body: { content: `Write at length. REPLY_WORDS=${words}`, stream: true },
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let text = "";
  let firstDelta!: () => void;
  const started = new Promise<void>((resolve) => (firstDelta = resolve));
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return performance.now();
      text += Buffer.from(value).toString();
      if (text.includes('"type":"delta"')) firstDelta();
    }
  })();
  await started;
  return { ended };
}

async function lastAssistant(conversationId: string) {
  const { rows } = await db.query<{ status: string; content: string }>(
    'SELECT status, content FROM "Message" WHERE "conversationId" = $1 AND role = \'assistant\' ORDER BY seq DESC LIMIT 1',
    [conversationId],
  );
  return rows[0];
}

beforeAll(async () => {
  await resetDatabase(DATABASE_URL);
  db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  model = await startTestServer({ port: MODEL_PORT, chatLatencyMs: 2, summaryLatencyMs: 150, tokensPerChunk: 10 });
  const a = await startInstance("A", APP_PORT);
  const b = await startInstance("B", APP_PORT + 1);
  instances.push(a, b);
  everyInstance.push(a, b);
  // An account with a personal token, made with the CLI on the same database.
  token = await new Promise<string>((resolve, reject) => {
    const cli = spawn(process.execPath, ["--import", "tsx", "scripts/strata.ts", "user:create", "multi@example.com"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL, LOG_LEVEL: "silent" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    cli.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    cli.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    cli.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`user:create failed: ${err}`))));
    cli.stdin.end(PASSWORD);
  });
  const settings = await api(a, "/api/settings", { method: "PUT", body: SMALL_WINDOW });
  expect(settings.status, await settings.clone().text()).toBe(200);
}, 20 * 60_000);

const everyInstance: Instance[] = [];

afterAll(async () => {
  mkdirSync(path.join(ROOT, "test-results"), { recursive: true });
  for (const instance of everyInstance) {
    crash(instance);
    writeFileSync(path.join(ROOT, "test-results", `instances-${instance.name}.log`), instance.log());
  }
  await model?.close();
  await db?.end();
});

describe("two instances over one PostgreSQL", () => {
  it("orders 2 × 50 concurrent sends to one conversation, compacts each range once, one summary call per compaction", async () => {
    const [a, b] = instances as [Instance, Instance];
    const conversationId = await createConversation(a, "two instances");
    const before = summaryCalls();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: SENDS_PER_INSTANCE * 2 }, (_, i) =>
        turn(i % 2 === 0 ? a : b, conversationId, `Send ${i}: FACT k${i}=v${i}\ntell me about queues. REPLY_WORDS=${20 + (i % 30)}`),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    // Background compactions queued by the last turns finish.
    await waitFor(async () => (await db.query("SELECT 1 FROM pgboss.job WHERE name = 'strata-background-compaction' AND state IN ('created','retry','active')")).rowCount === 0, 60_000);
    const errors = results.filter((r) => !r.ok).map((r) => r.error);
    const check = await integrity(conversationId);
    const calls = summaryCalls() - before;
    const { rows: attempts } = await db.query<{ outcome: string; n: string }>(
      'SELECT outcome, count(*) AS n FROM "CompactionAttempt" WHERE "conversationId" = $1 GROUP BY outcome',
      [conversationId],
    );
    const figures = {
      sends: results.length,
      seconds: Number(seconds.toFixed(1)),
      throughput: Number((results.length / seconds).toFixed(2)),
      p50: Math.round(percentile(results.map((r) => r.ms), 50)),
      p95: Math.round(percentile(results.map((r) => r.ms), 95)),
      busyRefusals: results.reduce((sum, r) => sum + r.refused, 0),
      summaryCalls: calls,
      summaryCompactions: check.summaries,
      attempts: Object.fromEntries(attempts.map((row) => [row.outcome, Number(row.n)])),
    };
    console.log(`TWO-INSTANCE FIGURES ${JSON.stringify(figures)}`);
    expect(errors).toEqual([]);
    expect(check.contiguous).toBe(true);
    expect(check.messages).toBeGreaterThanOrEqual(SENDS_PER_INSTANCE * 4);
    // One turn at a time across both instances: every question is followed by its own answer.
    const { rows: roles } = await db.query<{ role: string }>('SELECT role FROM "Message" WHERE "conversationId" = $1 ORDER BY seq', [conversationId]);
    expect(roles.map((row) => row.role).join(" ")).toBe(Array.from({ length: roles.length / 2 }, () => "user assistant").join(" "));
    expect(check.overlaps).toBe(0);
    expect(check.summaries).toBeGreaterThan(0);
    // One call per saved summary, plus one per attempt the engine itself failed after its
    // call (a merge that came out no shorter); none lost to another instance's save.
    const failed = Number(attempts.find((row) => row.outcome === "failed")?.n ?? 0);
    expect(calls).toBe(check.summaries + failed);
    const { rows: unsaved } = await db.query('SELECT 1 FROM "CompactionAttempt" WHERE "conversationId" = $1 AND reason LIKE \'%could not be saved%\'', [conversationId]);
    expect(unsaved).toEqual([]);
  }, 15 * 60_000);

  it("stop sent to B ends a turn streaming on A within 2 s, the partial reply saved", async () => {
    const [a, b] = instances as [Instance, Instance];
    const conversationId = await createConversation(a, "stop across instances");
    await model.setLatency({ chatLatencyMs: 40 });
    try {
      const { ended } = await streamingTurn(a, conversationId, 4000);
      const stopAt = performance.now();
      const stop = await api(b, `/api/conversations/${conversationId}/stop`, { method: "POST" });
      expect(stop.status).toBe(200);
      const endedAt = await ended;
      expect(endedAt - stopAt).toBeLessThan(2000);
      const partial = await lastAssistant(conversationId);
      expect(partial?.status).toBe("stopped");
      expect(partial?.content.length).toBeGreaterThan(0);
    } finally {
      await model.setLatency({ chatLatencyMs: 2 });
    }
  }, 120_000);

  it("SIGKILL of the instance running a background compaction: the other completes it, once", async () => {
    const [a, b] = instances as [Instance, Instance];
    const conversationId = await createConversation(a, "crash mid-job");
    // Below the pre-emptive level nothing happens; fill the context with turns that end
    // before any background compaction could (slow summaries), until a job is summarizing.
    await model.setLatency({ summaryLatencyMs: 6000 });
    try {
      let runner: Instance | undefined;
      for (let i = 0; i < 30 && !runner; i++) {
        const before = summaryCalls();
        const result = await turn(a, conversationId, `Crash turn ${i}: FACT c${i}=x${i}\nREPLY_WORDS=120`);
        expect(result.error).toBeUndefined();
        const started = await waitFor(async () => summaryCalls() > before, 3000).then(() => true, () => false);
        if (!started) continue;
        // Which instance's job is summarizing: the one with a job of this conversation started and not done.
        runner = instances.find((instance) => jobsRunning(instance, conversationId) > 0);
      }
      expect(runner, "no background compaction started").toBeDefined();
      const survivor = runner === a ? b : a;
      const callsBefore = summaryCalls();
      const summariesBefore = (await integrity(conversationId)).summaries;
      crash(runner!);
      await runner!.exited;
      instances.splice(instances.indexOf(runner!), 1);
      // The survivor retries the job after the heartbeat lapses, and saves the compaction.
      await waitFor(async () => (await integrity(conversationId)).summaries > summariesBefore, 90_000);
      await waitFor(async () => (await db.query("SELECT 1 FROM pgboss.job WHERE name = 'strata-background-compaction' AND state IN ('created','retry','active')")).rowCount === 0, 60_000);
      const check = await integrity(conversationId);
      expect(check.contiguous).toBe(true);
      expect(check.overlaps).toBe(0);
      expect(check.summaries).toBe(summariesBefore + 1);
      expect(summaryCalls() - callsBefore).toBe(1);
      expect(survivor.log()).toContain("background compaction job started");
      // The conversation goes on on the survivor.
      expect((await turn(survivor, conversationId, "Still there? RECALL c0?")).ok).toBe(true);
    } finally {
      await model.setLatency({ summaryLatencyMs: 150 });
    }
  }, 240_000);

  it("SIGTERM lets a running turn save its partial reply before the instance exits", async () => {
    const survivor = instances[0]!;
    const conversationId = await createConversation(survivor, "sigterm");
    await model.setLatency({ chatLatencyMs: 40 });
    try {
      const { ended } = await streamingTurn(survivor, conversationId, 4000);
      survivor.child.kill("SIGTERM");
      await ended;
      const code = await survivor.exited;
      expect(code).not.toBeNull();
      const partial = await lastAssistant(conversationId);
      expect(partial?.status).toBe("stopped");
      expect(partial?.content.length).toBeGreaterThan(0);
    } finally {
      await model.setLatency({ chatLatencyMs: 2 });
    }
  }, 120_000);
});

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
