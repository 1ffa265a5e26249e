// Summary-model faults: a compaction is due before the model call and the summary
// model fails (HTTP 500, hang past summaryTimeoutMs, empty reply, prose instead of the
// structured strategy's JSON, a garbage body). The chat must go on (the reply is
// stored), the stored data stay untouched (no compaction from the failed attempt, no
// message lost), and the failed attempt is recorded with its reason. Past the hard
// limit the request is truncated and fits.
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { appendMessages } from "../../lib/db/messages";
import { countMessageTokens } from "../../lib/llm/tokens";
import type { Fault } from "../support/test-model";
import type { CompressionSettings } from "../../lib/compression/settings";
import { allViolations } from "./support/invariants";
import { send, setupHarness, applySettings } from "./support/harness";

const h = setupHarness();
const MODEL = "gpt-4o-mini";
const WINDOW = 4000;
const RESERVE = 400; // within 15% of the window, so the engine keeps it as configured
const HARD_LIMIT = WINDOW - RESERVE; // 3,600
const THRESHOLD = 0.8 * WINDOW; // 3,200

const base: Partial<CompressionSettings> = {
  contextWindowOverrides: { [MODEL]: WINDOW },
  hardLimitReserve: RESERVE,
  keepRecentCount: 2,
  preemptiveThreshold: 0, // compaction happens on the turn itself
  summaryTimeoutMs: 1000,
};

/** A conversation whose context holds `tokens` tokens (before the next user message). */
async function conversationWith(tokens: number): Promise<string> {
  const conversation = await ops.createConversation(h.user, { title: "faults", model: MODEL, systemPrompt: "Be brief." });
  let i = 0;
  for (;;) {
    const meter = await ops.meter(h.user, conversation.id);
    if (meter.totalTokens >= tokens) break;
    const remaining = tokens - meter.totalTokens;
    const words = Math.max(1, Math.min(90, Math.round(remaining * 0.7)));
    const content = `History ${++i}: ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(words / 5)).split(" ").slice(0, words).join(" ")}`;
    const role = i % 2 === 1 ? "user" : "assistant";
    await appendMessages(h.db, h.user.id, conversation.id, [
      role === "user"
        ? { role, content, tokenCount: countMessageTokens({ role, content }) }
        : { role, content, tokenCount: countMessageTokens({ role, content }), model: MODEL, status: "complete" },
    ]);
  }
  return conversation.id;
}

/** The model's own count of the last chat request (its usage's prompt_tokens): the hard limit is about what the server counts. */
function lastChatServerCount(): number {
  const count = h.server.requests.filter((r) => r.kind === "chat").at(-1)?.promptTokens;
  if (count === undefined) throw new Error("no chat request with reported usage");
  return count;
}

const cases: { name: string; fault: Fault; reason: RegExp }[] = [
  { name: "HTTP 500", fault: { type: "http_500", target: "summary", times: 20 }, reason: /^summary model call failed: .*500/ },
  { name: "hang past summaryTimeoutMs", fault: { type: "hang", target: "summary", times: 20 }, reason: /^(summary model timed out after 1,?000 ms|compression timed out: the pass ran past its 1,000 ms deadline)$/ },
  { name: "empty reply", fault: { type: "empty", target: "summary", times: 20 }, reason: /^summary model returned empty output$/ },
  { name: "garbage body", fault: { type: "malformed_stream", target: "summary", times: 20 }, reason: /^summary model call failed: / },
];

describe("summary model faults", () => {
  for (const testCase of cases) {
    it(`${testCase.name}: the chat continues, nothing is compacted, the failed attempt is recorded`, async () => {
      await applySettings(h.db, base);
      const conversationId = await conversationWith(THRESHOLD + 50);
      const messagesBefore = await h.db.message.count({ where: { conversationId } });
      h.server.clearFaults();
      h.server.injectFault(testCase.fault);
      const started = Date.now();
      const events = await send(conversationId, "Go on please. REPLY_WORDS=10");
      h.server.clearFaults();

      // The chat continued: the reply was streamed and stored.
      expect(events.filter((e) => e.type === "error")).toEqual([]);
      const assistant = await h.db.message.findFirst({ where: { conversationId, role: "assistant", status: "complete" }, orderBy: { seq: "desc" } });
      expect(assistant?.seq).toBe(messagesBefore + 2);
      expect(await h.db.message.count({ where: { conversationId } })).toBe(messagesBefore + 2);
      // Data untouched: no compaction at all (the request still fit under the hard limit).
      expect(await h.db.compaction.count({ where: { conversationId } })).toBe(0);
      expect(lastChatServerCount()).toBeLessThanOrEqual(HARD_LIMIT);
      // The failure is on record, with a reason, and was reported to the client.
      const failed = await h.db.compactionAttempt.findMany({ where: { conversationId, outcome: "failed" } });
      expect(failed.length).toBeGreaterThan(0);
      for (const attempt of failed) {
        expect(attempt.compactionId).toBeNull();
        expect(attempt.reason.trim().length).toBeGreaterThan(0);
      }
      for (const attempt of failed) expect(attempt.reason).toMatch(testCase.reason);
      expect(events.some((e) => e.type === "compaction_failed")).toBe(true);
      // The summary model was really asked (and failed), within the timeout.
      expect(h.server.requests.some((r) => r.kind === "summary" && r.fault === testCase.fault.type)).toBe(true);
      // A hung summary costs the turn its 1 s timeout, not more (the model call itself is instant here).
      if (testCase.fault.type === "hang") expect(Date.now() - started).toBeLessThan(3000);
      expect(await allViolations(h.db, conversationId)).toEqual([]);
    });
  }

  it("a structured summary answered in prose falls back to a plain summary instead of failing", async () => {
    await applySettings(h.db, { ...base, strategy: "structured" });
    const conversationId = await conversationWith(THRESHOLD + 50);
    h.server.clearFaults();
    h.server.injectFault({ type: "invalid_json", target: "summary", times: 20 });
    const events = await send(conversationId, "Go on please. REPLY_WORDS=10");
    h.server.clearFaults();
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    const compactions = await h.db.compaction.findMany({ where: { conversationId } });
    expect(compactions.map((c) => [c.kind, c.strategy, c.sections])).toEqual([["summary", "structured", null]]);
    const applied = await h.db.compactionAttempt.findMany({ where: { conversationId, outcome: "applied" } });
    expect(applied.map((a) => a.reason).join("\n")).toMatch(/structured summary fell back to plain text \(summary model returned invalid JSON/);
    expect(await allViolations(h.db, conversationId)).toEqual([]);
  });

  it("past the hard limit with the summary model down: the request is truncated and fits", async () => {
    await applySettings(h.db, base);
    const conversationId = await conversationWith(HARD_LIMIT + 300);
    const messagesBefore = await h.db.message.count({ where: { conversationId } });
    h.server.clearFaults();
    h.server.injectFault({ type: "http_500", target: "summary", times: 50 });
    const events = await send(conversationId, "And now? REPLY_WORDS=10");
    h.server.clearFaults();

    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(await h.db.message.count({ where: { conversationId } })).toBe(messagesBefore + 2);
    const compactions = await h.db.compaction.findMany({ where: { conversationId } });
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.every((c) => c.kind === "truncation" && c.trigger === "hard_limit")).toBe(true);
    const failed = await h.db.compactionAttempt.findMany({ where: { conversationId, outcome: "failed" } });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((a) => a.compactionId === null)).toBe(true);
    // The whole request, tool definitions included, within the hard limit (not merely the window).
    expect(lastChatServerCount()).toBeLessThanOrEqual(HARD_LIMIT);
    // The truncated part stays in the database, only hidden from the model.
    expect(await h.db.message.count({ where: { conversationId } })).toBe(messagesBefore + 2);
    expect(await allViolations(h.db, conversationId)).toEqual([]);
  });
});
