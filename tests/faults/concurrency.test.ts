// Concurrency: two clients send 50 messages each to ONE conversation at the same time,
// with a small window so compactions run all along. First two concurrent loops in this
// process (sharing the in-process conversation lock), then two separate processes
// (only the database protects them). Sequence numbers must be unique and contiguous,
// every user message present exactly once, and no two active compactions may ever
// cover the same messages.
import { spawnTurnChild } from "./support/child";
import { startTurnWhenFree } from "./support/turns";
import { SMALL_WINDOW } from "./support/settings";
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { backgroundSettled } from "../../lib/chat/compressor";
import { compactionViolations, messageViolations } from "./support/invariants";
import { collect, setupHarness, applySettings } from "./support/harness";

const PER_CLIENT = 50;
const h = setupHarness({ summaryLatencyMs: 20, chatLatencyMs: 1, tokensPerChunk: 10 });


async function userContents(conversationId: string): Promise<string[]> {
  const rows = await h.db.message.findMany({ where: { conversationId, role: "user" }, select: { content: true } });
  return rows.map((row) => row.content);
}

function runChild(conversationId: string, seed: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnTurnChild({
      userId: h.user.id,
      conversationId,
      seed,
      modelServerUrl: h.server.url,
      env: { CRASH_TURNS: String(PER_CLIENT) },
    });
    child.stdout.resume(); // its progress lines are not needed here
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const guard = setTimeout(() => child.kill("SIGKILL"), 110_000);
    child.on("error", reject);
    // "close": by "exit" the last of its output may still be unread.
    child.on("close", (code) => {
      clearTimeout(guard);
      resolve({ code, stderr });
    });
  });
}

describe("two clients on one conversation at once", () => {
  it("in one process: unique increasing seqs, no lost message, no duplicate active compaction", async () => {
    await applySettings(h.db, SMALL_WINDOW);
    const conversation = await ops.createConversation(h.user, { title: "two clients", model: "gpt-4o-mini", systemPrompt: "Be brief." });
    const errors: string[] = [];
    const client = async (name: string) => {
      for (let i = 1; i <= PER_CLIENT; i++) {
        const events = await collect(await startTurnWhenFree(h.user, { conversationId: conversation.id, content: `Client ${name} #${i}: FACT ${name}${i}=x${i}\nREPLY_WORDS=30` }));
        for (const event of events) if (event.type === "error") errors.push(`${name} #${i}: ${event.message}`);
      }
    };
    await Promise.all([client("A"), client("B")]);
    await backgroundSettled(conversation.id);

    expect(errors).toEqual([]);
    expect(await messageViolations(h.db, conversation.id)).toEqual([]);
    expect(await compactionViolations(h.db, conversation.id, { duplicateRanges: true })).toEqual([]);
    const contents = await userContents(conversation.id);
    for (const name of ["A", "B"]) {
      for (let i = 1; i <= PER_CLIENT; i++) {
        expect(contents.filter((c) => c.startsWith(`Client ${name} #${i}:`)), `${name} #${i}`).toHaveLength(1);
      }
    }
    expect(contents).toHaveLength(2 * PER_CLIENT);
    // The small window really made both clients compact.
    expect(await h.db.compaction.count({ where: { conversationId: conversation.id } })).toBeGreaterThan(3);
  }, 120_000);

  it("in two processes: the database alone keeps seqs unique and compactions disjoint", async () => {
    await applySettings(h.db, SMALL_WINDOW);
    const conversation = await ops.createConversation(h.user, { title: "two processes", model: "gpt-4o-mini", systemPrompt: "Be brief." });
    const results = await Promise.all([runChild(conversation.id, 1), runChild(conversation.id, 2)]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);

    expect(await messageViolations(h.db, conversation.id)).toEqual([]);
    expect(await compactionViolations(h.db, conversation.id, { duplicateRanges: true })).toEqual([]);
    const contents = await userContents(conversation.id);
    for (const seed of [1, 2]) {
      for (let i = 1; i <= PER_CLIENT; i++) {
        expect(contents.filter((c) => c.startsWith(`Child ${seed}, turn ${i}.`)), `child ${seed} turn ${i}`).toHaveLength(1);
      }
    }
    expect(contents).toHaveLength(2 * PER_CLIENT);
    const compactions = await h.db.compaction.count({ where: { conversationId: conversation.id } });
    const conflicts = await h.db.compactionAttempt.count({ where: { conversationId: conversation.id, outcome: "skipped", reason: { contains: "concurrent" } } });
    expect(compactions).toBeGreaterThan(3);
    console.log(`two processes: ${compactions} compactions, ${conflicts} conflicting attempts refused`);
  }, 120_000);
});
