import { beforeEach, describe, expect, it } from "vitest";
import { replaceRange } from "@/lib/compression/apply";
import { heldSeqs } from "@/lib/compression/selection";
import { assertValidToolPairs, chat, compaction, msg, resetSeq, setup, text, transcriptOf } from "./fakes";

beforeEach(() => resetSeq());

const countMode = { triggerMode: "count" as const, countThreshold: 8, countWindow: 8, countKeepRecent: 2, countSummaryMaxChars: 100_000 };

describe("messages compression leaves where they are", () => {
  it("a message pinned when a compaction is made is kept beside it, and stays in view once unpinned", async () => {
    const { manager } = setup(countMode, 1_000_000);
    const messages = chat(5, 300);
    messages[2] = { ...messages[2]!, pinned: true };
    const change = await manager.process(transcriptOf(messages));
    const record = change.created[0]!;
    expect(record.fromSeq).toBeLessThan(3);
    expect(record.toSeq).toBeGreaterThan(3);
    expect(record.keptSeqs).toEqual([3]);
    // Unpinned later: the database still loads it (keptSeqs), and compression still leaves it alone.
    const unpinned = { ...change.transcript, messages: change.transcript.messages.map((m) => (m.seq === 3 ? { ...m, pinned: false } : m)) };
    expect(heldSeqs(unpinned).has(3)).toBe(true);
    const again = await manager.compactNow(unpinned);
    for (const created of again.created) expect(created.keptSeqs).toContain(3);
    expect(manager.buildRequest(again.transcript).messages.some((m) => m.content === messages[2]!.content)).toBe(true);
  });

  it.each(["call", "result"] as const)("a pinned tool %s keeps its other half beside it: the pair is taken whole or not at all", async (pinned) => {
    resetSeq();
    const { manager } = setup(countMode, 1_000_000);
    const messages = [
      msg("user", `look ${text(200)}`),
      msg("assistant", "", { toolCalls: [{ id: "t1", name: "ls", arguments: "{}" }], pinned: pinned === "call" }),
      msg("tool", `listing ${text(200)}`, { toolCallId: "t1", pinned: pinned === "result" }),
      ...chat(4, 300),
      msg("user", "q"),
    ];
    const change = await manager.process(transcriptOf(messages));
    expect(change.created.length).toBeGreaterThan(0);
    // The pair lies inside the compacted range and is kept beside the summary, whole.
    expect(change.created[0]!.fromSeq).toBeLessThanOrEqual(2);
    expect(change.created[0]!.toSeq).toBeGreaterThanOrEqual(3);
    expect(change.created[0]!.keptSeqs).toEqual([2, 3]);
    const request = manager.buildRequest(change.transcript);
    assertValidToolPairs(request.messages);
    expect(request.messages.some((m) => m.role === "tool" && (m.content ?? "").startsWith("listing"))).toBe(true);
    expect(request.messages.some((m) => m.role === "assistant" && m.tool_calls?.[0]?.id === "t1")).toBe(true);
  });

  it("applying a record keeps exactly its kept seqs", () => {
    const transcript = transcriptOf([msg("user", "a"), msg("user", "b"), msg("user", "c")]);
    const after = replaceRange(transcript, compaction("x", 1, 3, { keptSeqs: [2] }));
    expect(after.messages.map((m) => m.seq)).toEqual([2]);
  });
});

describe("stop", () => {
  it("pressed while an inline summary is written: nothing is cut afterwards, since no model call follows", async () => {
    const { manager, summarizer } = setup({ keepRecentCount: 2 });
    summarizer.behaviour = "hang";
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const change = await manager.process(transcriptOf([...chat(12, 1000), msg("user", "go")]), { signal: controller.signal });
    expect(change.created).toEqual([]);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["failed"]);
    expect(change.attempts[0]!.reason).toBe("summary cancelled by the caller");
  });
});
