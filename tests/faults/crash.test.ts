// Crash mid-compaction: a child process (tests/faults/crash-child.ts) runs chat turns
// with automatic compaction and manual compactions on ONE conversation, against the
// test server with a summary latency, and is killed with SIGKILL after a random
// 0–300 ms, 100 times (two at a time on the same conversation). After every kill: every message the child saw stored is there,
// sequence numbers are contiguous and match the counter, and the compaction records
// are complete (no half-written rows, no overlapping active compactions, attempts
// consistent). At the end the conversation still works.
import { spawnTurnChild } from "./support/child";
import { SMALL_WINDOW } from "./support/settings";
import { describe, expect, it } from "vitest";
import { appendMessages } from "../../lib/db/messages";
import { countMessageTokens } from "../../lib/llm/tokens";
import * as ops from "../../lib/chat/operations";
import { allViolations } from "./support/invariants";
import { collect, setupHarness, applySettings } from "./support/harness";
import { startTurnWhenFree } from "./support/turns";

const KILLS = Number(process.env.CRASH_KILLS ?? 100);
const SUMMARY_LATENCY_MS = 60;
const h = setupHarness({ summaryLatencyMs: SUMMARY_LATENCY_MS, chatLatencyMs: 0, tokensPerChunk: 20 });

type Run = { lines: string[]; killedAt: number; exitSignal: string | null };
/** When to kill: after a fixed delay, right after an acknowledged compaction, or while a summary request awaits its answer. */
type KillPoint = number | "after-compaction" | "mid-summary";
type Prepared = { ready: Promise<void>; go: (kill: KillPoint) => Promise<Run> };

/** Resolves when the model server receives a summary request made after `since` (polled: the server only records). */
async function summaryRequested(since: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (h.server.requests.some((r) => r.kind === "summary" && r.time >= since)) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

/**
 * Starts a child ahead of time (startup costs seconds on a loaded machine: node, Prisma,
 * tiktoken's rank table); it warms up, prints READY and waits. go() lets it work and
 * SIGKILLs it `killAfterMs` later.
 */
function prepareChild(conversationId: string, seed: number): Prepared {
  const child = spawnTurnChild({
    userId: h.user.id,
    conversationId,
    seed,
    modelServerUrl: h.server.url,
    env: { CRASH_WAIT_FOR_GO: "1" },
  });
  let buffer = "";
  let stderr = "";
  const lines: string[] = [];
  // Set by go() for a kill right after the child acknowledges a compaction.
  let killOnCompaction: (() => void) | null = null;
  let markReady: () => void = () => undefined;
  let failReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  const exited = new Promise<string | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  const guard = setTimeout(() => child.kill("SIGKILL"), 90_000);
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      if (line === "READY") markReady();
      if (line.startsWith("C ")) killOnCompaction?.();
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.on("error", (error) => failReady(error));
  void exited.then(() => {
    clearTimeout(guard);
    failReady(new Error(`the child exited before it was ready:\n${stderr}`));
  });
  return {
    ready,
    /**
     * Kills the child `killAt` ms after GO; with "after-compaction", right after it acknowledges one;
     * with "mid-summary", a random 0–40 ms after the model server receives one of its summary requests
     * (the server answers after SUMMARY_LATENCY_MS, so the request is still in flight).
     */
    async go(killAt: KillPoint) {
      await ready;
      let killedAt = 0;
      const kill = () => {
        if (killedAt) return;
        killedAt = Date.now();
        child.kill("SIGKILL");
      };
      child.stdin.write("GO\n");
      if (killAt === "after-compaction") {
        killOnCompaction = kill;
        setTimeout(kill, 30_000);
      } else if (killAt === "mid-summary") {
        const since = Date.now();
        void summaryRequested(since, 30_000).then(() => setTimeout(kill, Math.floor(Math.random() * 41)));
      } else setTimeout(kill, killAt);
      const exitSignal = await exited;
      return { lines, killedAt, exitSignal };
    },
  };
}

describe("crash mid-compaction", () => {
  it(`survives ${KILLS} SIGKILLs at random points with every acknowledged write present and complete records`, async () => {
    await applySettings(h.db, SMALL_WINDOW);
    const conversation = await ops.createConversation(h.user, { title: "crash", model: "gpt-4o-mini", systemPrompt: "Be brief." });
    // Enough history to compact from the first moment.
    await appendMessages(
      h.db,
      h.user.id,
      conversation.id,
      Array.from({ length: 40 }, (_, i) => {
        const content = `Seed message ${i + 1}: some earlier discussion about databases and crash safety. FACT seed${i}=s${i}`;
        return i % 2 === 0
          ? { role: "user" as const, content, tokenCount: countMessageTokens({ role: "user", content }) }
          : { role: "assistant" as const, content, tokenCount: countMessageTokens({ role: "assistant", content }), model: "gpt-4o-mini", status: "complete" as const };
      }),
    );

    const ackedMessages = new Map<number, string>();
    const ackedCompactions = new Set<string>();
    const violations: string[] = [];
    let midSummaryKills = 0;
    let midCompactKills = 0;
    let cleanExits = 0;
    let launched = 0;
    // Two workers kill children on the same conversation; each starts its next child
    // while the current one runs, so startup time overlaps the work.
    const worker = async () => {
      let next: Prepared | null = launched < KILLS ? prepareChild(conversation.id, ++launched) : null;
      while (next && violations.length <= 20) {
        const current = next;
        await current.ready;
        next = launched < KILLS ? prepareChild(conversation.id, ++launched) : null;
        // Every tenth child dies just after a compaction it reported and every fourth while
        // a summary request is in flight, so committed and half-done compactions are always
        // among the crash points however long a turn takes on this machine; the rest die at random.
        const killAfter: KillPoint =
          launched % 10 === 0 ? "after-compaction" : launched % 4 === 0 ? "mid-summary" : Math.floor(Math.random() * 301);
        const goAt = Date.now();
        const run = await current.go(killAfter);
        if (run.exitSignal !== "SIGKILL") cleanExits++;
        for (const line of run.lines) {
          const [tag, a, b] = line.split(" ");
          if (tag === "M") ackedMessages.set(Number(a), b!);
          if (tag === "C") ackedCompactions.add(a!);
        }
        // Was a summary request waiting for its answer when the child died?
        const summaries = h.server.requests.filter((r) => r.kind === "summary" && r.time >= goAt);
        if (summaries.some((r) => r.time <= run.killedAt && r.time + SUMMARY_LATENCY_MS > run.killedAt)) midSummaryKills++;
        const lastMark = run.lines.findLast((l) => l.startsWith("BEGIN") || l.startsWith("END"));
        if (lastMark === "BEGIN compact") midCompactKills++;
        for (const problem of await allViolations(h.db, conversation.id)) violations.push(`after a kill at ${killAfter} ms: ${problem}`);
      }
      if (next) await next.go(0); // a spare left over after a failure: end it
    };
    await Promise.all([worker(), worker()]);
    expect(violations).toEqual([]);

    // Every write the app acknowledged before a kill is durable.
    const rows = await h.db.message.findMany({ where: { conversationId: conversation.id }, select: { seq: true, role: true } });
    const stored = new Map(rows.map((row) => [row.seq, row.role as string]));
    const lost = [...ackedMessages].filter(([seq, role]) => stored.get(seq) !== role);
    expect(lost).toEqual([]);
    const compactions = await h.db.compaction.findMany({ where: { id: { in: [...ackedCompactions] } }, select: { id: true } });
    expect(compactions.length).toBe(ackedCompactions.size);

    // The kills really landed mid-work: writes were acknowledged, and many kills hit a
    // compaction in flight (a summary request awaiting its answer or a manual compaction).
    expect(ackedMessages.size).toBeGreaterThanOrEqual(Math.ceil(KILLS / 5));
    expect(ackedCompactions.size).toBeGreaterThan(0);
    expect(midSummaryKills + midCompactKills).toBeGreaterThanOrEqual(Math.ceil(KILLS / 10));
    expect(cleanExits).toBe(0);
    console.log(
      `crash: ${KILLS} kills, ${ackedMessages.size} acknowledged messages, ${ackedCompactions.size} acknowledged compactions, ` +
        `${midSummaryKills} kills with a summary request in flight, ${midCompactKills} during a manual compaction; ${rows.length} messages stored`,
    );

    // The conversation still works after all that (once the last killed child's turn lease
    // has expired, as a person sending again after the refusal would find).
    const events = await collect(await startTurnWhenFree(h.user, { conversationId: conversation.id, content: "Still there? REPLY_WORDS=5" }));
    expect(events.some((e) => e.type === "message" && e.message.role === "assistant")).toBe(true);
    expect(await allViolations(h.db, conversation.id)).toEqual([]);
  }, 480_000);
});
