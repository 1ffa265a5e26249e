// Defects of the compression layer that only show with the database and the chat
// loop together: races with rewind and edit, pins inside compacted ranges, a database
// that fails mid-compaction, settings saved during a turn, broken tool rounds.
import { describe, expect, it, vi } from "vitest";
import * as ops from "../../lib/chat/operations";
import { activeTranscript, backgroundSettled, compressionLogger, compressionManager, scheduleBackgroundCompaction, compactUnderLock } from "../../lib/chat/compressor";
import { saveCompressionChange } from "../../lib/db/compactions";
import { appendMessages } from "../../lib/db/messages";
import { readSettings } from "../../lib/db/settings";
import type { ChatMessage } from "../../lib/compression/types";
import { AppError } from "../../lib/errors";
import { chatRequests, newConversation, saveTestSettings, send, setupHarness } from "../support/harness";

const h = setupHarness();
const MODEL = "gpt-4o-mini";

function smallWindow(extra: Parameters<typeof saveTestSettings>[1] = {}) {
  return saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 3000 }, keepRecentCount: 4, preemptiveThreshold: 0, ...extra });
}

async function conversationWithHistory(turns = 10) {
  const conversation = await newConversation(MODEL);
  for (let turn = 1; turn <= turns; turn++) await send(conversation.id, `Turn ${turn}: the code word is apple${turn}. REPLY_WORDS=20`);
  return conversation;
}

function lastRequestText(): string {
  const body = chatRequests(h.server).at(-1)!.body as { messages: ChatMessage[] };
  return body.messages.map((m) => m.content ?? "").join("\n");
}

async function activeCompactions(conversationId: string) {
  return h.db.compaction.findMany({ where: { conversationId, supersededById: null, undoneAt: null } });
}

describe("rewind and edit against compactions in flight", () => {
  it("a compaction prepared before a rewind is refused when it is saved", async () => {
    await smallWindow({ enabled: false });
    const conversation = await conversationWithHistory();
    const { settings } = await readSettings(h.db, h.user.id, conversation.id);
    const transcript = await activeTranscript(h.user.id, conversation.id);
    const change = await compressionManager().compactNow(transcript, settings);
    expect(change.created.length).toBeGreaterThan(0);
    await ops.rewind(h.user, { conversationId: conversation.id, turns: 8 });
    const saved = await saveCompressionChange(h.db, h.user.id, conversation.id, change, 0);
    expect(saved.saved).toBe(false);
    expect(saved.conflict).toMatch(/rewound or edited/);
    expect(await activeCompactions(conversation.id)).toEqual([]);
    const skipped = await h.db.compactionAttempt.findMany({ where: { conversationId: conversation.id, outcome: "skipped" } });
    expect(skipped.some((a) => /rewound or edited/.test(a.reason))).toBe(true);
  }, 60_000);

  it("rewind while a manual compaction is being written: the rewound messages never reach the model again", async () => {
    await smallWindow({ enabled: false });
    const conversation = await conversationWithHistory();
    h.server.setLatency({ summaryLatencyMs: 3_000 });
    const compacting = ops.compactNow(h.user, { conversationId: conversation.id });
    // The summary is being written (asked for, not answered for 3 s).
    await vi.waitFor(() => expect(h.server.requests.some((r) => r.kind === "summary")).toBe(true), { timeout: 2_500, interval: 20 });
    await ops.rewind(h.user, { conversationId: conversation.id, turns: 9 });
    await compacting;
    h.server.setLatency({ summaryLatencyMs: 0 });
    await send(conversation.id, "What was the code word?");
    const text = lastRequestText();
    for (let turn = 2; turn <= 10; turn++) expect(text).not.toContain(`apple${turn}.`);
    expect(text).toContain("apple1.");
  }, 60_000);

  it("edit during a background compaction stops it; nothing is saved over the edited history", async () => {
    // The target at the threshold: the background compaction starts at once, with the
    // little this history holds (it would wait for room otherwise).
    await smallWindow({ preemptiveThreshold: 0.05, threshold: 0.9, compressionTarget: 1 });
    const conversation = await conversationWithHistory(6);
    await backgroundSettled(conversation.id);
    h.server.setLatency({ summaryLatencyMs: 3_000 });
    const firstUser = await h.db.message.findFirst({ where: { conversationId: conversation.id, role: "user" }, orderBy: { seq: "asc" } });
    const summaries = () => h.server.requests.filter((r) => r.kind === "summary").length;
    const before = summaries();
    const running = scheduleBackgroundCompaction(h.user.id, conversation.id);
    // The background summary is under way.
    await vi.waitFor(() => expect(summaries()).toBeGreaterThan(before), { timeout: 2_500, interval: 20 });
    await ops.startTurn(h.user, { conversationId: conversation.id, editSeq: firstUser!.seq, content: "Start over: the code word is pear." }).then(async (events) => {
      for await (const _ of events) void _;
    });
    await running;
    h.server.setLatency({ summaryLatencyMs: 0 });
    const cancelled = await h.db.compactionAttempt.findMany({ where: { conversationId: conversation.id, background: true } });
    expect(cancelled.some((a) => a.outcome !== "applied" && /cancelled/.test(a.reason))).toBe(true);
    const active = await activeCompactions(conversation.id);
    const rewound = await h.db.message.findMany({ where: { conversationId: conversation.id, rewoundAt: { not: null } }, select: { seq: true } });
    for (const compaction of active) for (const { seq } of rewound) expect(seq < compaction.fromSeq || seq > compaction.toSeq).toBe(true);
    expect(lastRequestText()).not.toContain("apple3.");
  }, 60_000);
});

describe("pins inside compacted ranges", () => {
  it("pinning a summarized message brings it back into the model's view; unpinning one that was kept beside a summary keeps it there", async () => {
    await smallWindow({ enabled: false });
    const conversation = await conversationWithHistory();
    const [second, third] = await h.db.message.findMany({ where: { conversationId: conversation.id, role: "user" }, orderBy: { seq: "asc" }, skip: 1, take: 2 });
    // Third is pinned before the compaction: kept beside it. Second is summarized.
    await ops.pinMessage(h.user, { conversationId: conversation.id, seq: third!.seq, pinned: true });
    await ops.compactNow(h.user, { conversationId: conversation.id });
    const [compaction] = await activeCompactions(conversation.id);
    expect(compaction!.fromSeq).toBeLessThanOrEqual(second!.seq);
    expect(compaction!.keptSeqs).toEqual([third!.seq]);

    await ops.pinMessage(h.user, { conversationId: conversation.id, seq: second!.seq, pinned: true });
    await ops.pinMessage(h.user, { conversationId: conversation.id, seq: third!.seq, pinned: false });
    await send(conversation.id, "Which code words do you see? REPLY_WORDS=5");
    const text = lastRequestText();
    expect(text).toContain(second!.content);
    expect(text).toContain(third!.content);
  }, 60_000);
});

describe("failures while saving", () => {
  it("a database error while saving a compaction: the turn goes on and the failure is recorded", async () => {
    await smallWindow({ threshold: 0.5 });
    const conversation = await conversationWithHistory(4);
    await h.db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION strata_test_fail() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql`);
    await h.db.$executeRawUnsafe(`CREATE TRIGGER strata_test_fail BEFORE INSERT ON "Compaction" FOR EACH ROW EXECUTE FUNCTION strata_test_fail()`);
    try {
      let events = await send(conversation.id, "Long question REPLY_WORDS=20");
      for (let turn = 0; turn < 6 && !events.some((e) => e.type === "compaction_failed"); turn++) events = await send(conversation.id, "More REPLY_WORDS=200");
      expect(events.find((e) => e.type === "error")).toBeUndefined();
      expect(events.some((e) => e.type === "message" && e.message.role === "assistant")).toBe(true);
      const failed = events.find((e) => e.type === "compaction_failed");
      expect(failed).toBeDefined();
      expect(failed!.type === "compaction_failed" && failed!.attempt.reason).toMatch(/could not be saved/);
    } finally {
      await h.db.$executeRawUnsafe(`DROP TRIGGER strata_test_fail ON "Compaction"`);
      await h.db.$executeRawUnsafe(`DROP FUNCTION strata_test_fail()`);
    }
    expect(await h.db.compaction.count({ where: { conversationId: conversation.id } })).toBe(0);
    const recorded = await h.db.compactionAttempt.findMany({ where: { conversationId: conversation.id, outcome: "failed" } });
    expect(recorded.some((a) => /could not be saved/.test(a.reason) && a.error === "disk full" || /disk full/.test(a.error ?? ""))).toBe(true);
  }, 60_000);

  it("attempts are logged once their outcome is final: a save that loses a conflict is logged as skipped", async () => {
    await smallWindow({ enabled: false });
    const conversation = await conversationWithHistory(8);
    const info = vi.spyOn(compressionLogger, "info");
    try {
      const { settings } = await readSettings(h.db, h.user.id, conversation.id);
      const result = await compactUnderLock(h.user.id, conversation.id, settings, async (transcript) => {
        const change = await compressionManager().compactNow(transcript, settings);
        // Another writer compacts the same messages first.
        const rival = await compressionManager().compactNow(transcript, settings);
        await saveCompressionChange(h.db, h.user.id, conversation.id, rival, 0);
        return change;
      });
      expect(result.saved).toBe(false);
      const messages = info.mock.calls.map((call) => String(call[1]));
      expect(messages.some((m) => m.startsWith("compression skipped"))).toBe(true);
      expect(messages.some((m) => m.startsWith("compression applied"))).toBe(false);
    } finally {
      info.mockRestore();
    }
  }, 60_000);

  it("settings saved while a turn is compressing apply from the next turn, not halfway through this one", async () => {
    await smallWindow({ enabled: false });
    const conversation = await conversationWithHistory(10);
    await smallWindow({ threshold: 0.2 });
    h.server.setLatency({ summaryLatencyMs: 500 });
    const turn = send(conversation.id, "Next question REPLY_WORDS=10");
    await new Promise((resolve) => setTimeout(resolve, 150));
    // A window so small that, read halfway, the request would have to be cut to nothing.
    await smallWindow({ threshold: 0.2, contextWindowOverrides: { [MODEL]: 600 } });
    const events = await turn;
    h.server.setLatency({ summaryLatencyMs: 0 });
    expect(events.some((e) => e.type === "compaction")).toBe(true); // the save really fell inside a summary
    const body = chatRequests(h.server).at(-1)!.body as { messages: ChatMessage[] };
    expect(body.messages.some((m) => m.role === "user" && m.content === "Next question REPLY_WORDS=10")).toBe(true);
    expect(body.messages.map((m) => m.content ?? "").join("\n")).not.toMatch(/tokens elided/);
    // The next turn is fitted to the new window.
    await send(conversation.id, "And now? REPLY_WORDS=5");
    const next = chatRequests(h.server).at(-1)!.body as { messages: ChatMessage[] };
    expect(next.messages.length).toBeLessThan(body.messages.length);
  }, 60_000);
});

describe("broken tool rounds", () => {
  it("a tool call left without its result by a crash is not sent again", async () => {
    const conversation = await conversationWithHistory(2);
    await appendMessages(h.db, h.user.id, conversation.id, [
      { role: "assistant", content: "", tokenCount: 10, model: MODEL, status: "complete", toolCalls: [{ id: "call_lost", name: "current_time", arguments: "{}" }] },
    ]);
    await send(conversation.id, "Are you there?");
    const body = chatRequests(h.server).at(-1)!.body as { messages: ChatMessage[] };
    for (const message of body.messages) {
      if (message.role === "assistant") expect(message.tool_calls?.some((call) => call.id === "call_lost") ?? false).toBe(false);
    }
  }, 60_000);

  it("a result for an unknown call, or a second result for the same call, is refused with a clear error", async () => {
    const conversation = await conversationWithHistory(1);
    const tool = (toolCallId: string) => ({ role: "tool" as const, content: "12:00", toolCallId, toolName: "current_time", outcome: "done" as const, tokenCount: 5 });
    await expect(appendMessages(h.db, h.user.id, conversation.id, [tool("nobody")])).rejects.toThrow(AppError);
    await appendMessages(h.db, h.user.id, conversation.id, [
      { role: "assistant", content: "", tokenCount: 10, model: MODEL, status: "complete", toolCalls: [{ id: "c1", name: "current_time", arguments: "{}" }] },
    ]);
    await appendMessages(h.db, h.user.id, conversation.id, [tool("c1")]);
    const count = await h.db.message.count({ where: { conversationId: conversation.id } });
    await expect(appendMessages(h.db, h.user.id, conversation.id, [tool("c1")])).rejects.toThrow(/no call with that id is waiting/);
    expect(await h.db.message.count({ where: { conversationId: conversation.id } })).toBe(count);
  }, 60_000);
});
