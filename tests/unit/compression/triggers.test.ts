import { beforeEach, describe, expect, it } from "vitest";
import { slidingWindowSizes } from "@/lib/compression/triggers";
import { DEFAULT_SETTINGS } from "@/lib/compression/settings";
import type { Transcript } from "@/lib/compression/types";
import { chat, msg, resetSeq, setup, text, transcriptOf, WINDOW } from "./fakes";

beforeEach(() => resetSeq());

/** Grows a chat until its ratio reaches `ratio` (or stays just below it). */
function chatAtRatio(manager: ReturnType<typeof setup>["manager"], ratio: number, below = false): Transcript {
  resetSeq();
  const messages = [];
  let transcript = transcriptOf([]);
  for (let i = 0; ; i++) {
    const next = msg(i % 2 === 0 ? "user" : "assistant", `${i}: ${text(380)}`);
    const candidate = transcriptOf([...messages, next]);
    const r = manager.measure(candidate).ratio;
    if (below ? r >= ratio : false) return transcript;
    messages.push(next);
    transcript = candidate;
    if (!below && r >= ratio) return transcript;
  }
}

describe("token trigger", () => {
  it("does nothing just below the threshold and compresses at it", async () => {
    const { manager, summarizer } = setup();
    await manager.process(transcriptOf([])); // primes the settings for measure()
    const below = chatAtRatio(manager, 0.8, true);
    expect(manager.measure(below).ratio).toBeLessThan(0.8);
    const none = await manager.process(below);
    expect(none.created).toEqual([]);
    expect(none.attempts).toEqual([]);
    expect(summarizer.calls).toHaveLength(0);

    const at = chatAtRatio(manager, 0.8);
    expect(manager.measure(at).ratio).toBeGreaterThanOrEqual(0.8);
    const change = await manager.process(at);
    expect(change.created).toHaveLength(1);
    const [record] = change.created;
    expect(record).toMatchObject({ level: 1, kind: "summary", trigger: "auto", strategy: "ai_summary", fromSeq: 1, childIds: [] });
    expect(change.attempts[0]).toMatchObject({ outcome: "applied", compactionId: record!.id, trigger: "auto" });
    // Aimed well under the threshold, not just under it.
    expect(manager.measure(change.transcript).ratio).toBeLessThan(0.8 * 0.6 + 0.05);
  });

  it("keeps the last keepRecentCount messages and the covered ones leave the transcript", async () => {
    const { manager } = setup({ keepRecentCount: 6 });
    await manager.process(transcriptOf([]));
    const transcript = chatAtRatio(manager, 0.95);
    const change = await manager.process(transcript);
    const record = change.created[0]!;
    const lastSix = transcript.messages.slice(-6).map((m) => m.seq);
    expect(record.toSeq).toBeLessThan(lastSix[0]!);
    expect(change.transcript.messages.map((m) => m.seq)).toEqual(transcript.messages.filter((m) => m.seq > record.toSeq).map((m) => m.seq));
    expect(change.transcript.compactions).toEqual([record]);
    expect(record.coveredMessageCount).toBe(record.toSeq - record.fromSeq + 1);
    expect(record.coveredTokens).toBe(transcript.messages.filter((m) => m.seq <= record.toSeq).reduce((s, m) => s + m.tokens, 0));
  });

  it("runs in the background only past the pre-emptive threshold, and never truncates there", async () => {
    const { manager } = setup();
    await manager.process(transcriptOf([]));
    const mid = chatAtRatio(manager, 0.7);
    expect(manager.measure(mid).ratio).toBeLessThan(0.8);
    expect((await manager.process(mid)).created).toEqual([]); // foreground: below 80%
    const background = await manager.process(mid, { background: true });
    expect(background.created).toHaveLength(1);
    expect(background.created[0]!.background).toBe(true);
    expect(background.attempts[0]!.background).toBe(true);

    const off = setup({ preemptiveThreshold: 0 });
    expect((await off.manager.process(mid, { background: true })).created).toEqual([]);
  });

  it("enabled=false never compresses, but the hard limit still truncates in the foreground", async () => {
    const { manager, summarizer } = setup({ enabled: false });
    await manager.process(transcriptOf([]));
    const over80 = chatAtRatio(manager, 0.85);
    const change = await manager.process(over80);
    expect(change.created).toEqual([]);
    expect(change.attempts).toHaveLength(1);
    expect(change.attempts[0]).toMatchObject({ outcome: "skipped" });
    expect(change.attempts[0]!.reason).toMatch(/disabled/);
    expect(summarizer.calls).toHaveLength(0);

    resetSeq();
    const huge = transcriptOf(chat(22, 800)); // ~8,900 tokens in a 4,000 window
    const truncated = await manager.process(huge);
    expect(summarizer.calls).toHaveLength(0);
    expect(truncated.created.map((c) => c.kind)).toEqual(["truncation"]);
    expect(truncated.created[0]).toMatchObject({ trigger: "hard_limit", strategy: "truncation", level: 1 });
    const request = manager.buildRequest(truncated.transcript, { ...(await setupSettings()), enabled: false });
    expect(request.breakdown.totalTokens).toBeLessThanOrEqual(WINDOW - 200);
    expect((await manager.process(huge, { background: true })).created).toEqual([]);
  });
});

async function setupSettings() {
  return setup().settings.snapshot();
}

describe("count trigger", () => {
  it("summarizes the oldest countWindow messages once countThreshold is reached", async () => {
    const settings = { triggerMode: "count" as const, countThreshold: 12, countWindow: 8, countKeepRecent: 3, countSummaryMaxChars: 120 };
    const { manager, summarizer } = setup(settings, 1_000_000);
    const eleven = transcriptOf(chat(5, 100).concat(msg("user", "one more")));
    expect((await manager.process(eleven)).created).toEqual([]);
    resetSeq();
    const twelve = transcriptOf(chat(6, 100));
    summarizer.respond = () => `${"long prose ".repeat(40)}\nFACT budget=1200\nFACT owner=alice`;
    const change = await manager.process(twelve);
    expect(change.created).toHaveLength(1);
    expect(change.created[0]).toMatchObject({ fromSeq: 1, toSeq: 8, coveredMessageCount: 8 });
    // Capped at 120 characters, yet facts are never cut.
    const summary = change.created[0]!.summary;
    expect(summary).toContain("FACT budget=1200");
    expect(summary).toContain("FACT owner=alice");
    expect(summary.length).toBeLessThanOrEqual(120);
    expect(summarizer.calls[0]!.messages[0]!.content).toContain("under 120 characters");
    expect(change.transcript.messages).toHaveLength(4);
  });

  it("keeps countKeepRecent even when the window would reach into them", async () => {
    const { manager } = setup({ triggerMode: "count", countThreshold: 10, countWindow: 10, countKeepRecent: 4 }, 1_000_000);
    const change = await manager.process(transcriptOf(chat(5, 100)));
    expect(change.created[0]!.toSeq).toBe(6);
    expect(change.transcript.messages.map((m) => m.seq)).toEqual([7, 8, 9, 10]);
  });
});

describe("sliding window", () => {
  it("grows window and batch with the total message count in steps", () => {
    const base = { ...DEFAULT_SETTINGS, windowSize: 5, compressionBatchSize: 2, dynamicWindow: true };
    expect(slidingWindowSizes(base, 10)).toEqual({ windowSize: 5, batchSize: 2 });
    expect(slidingWindowSizes(base, 20)).toEqual({ windowSize: 8, batchSize: 3 });
    expect(slidingWindowSizes(base, 50)).toEqual({ windowSize: 10, batchSize: 4 });
    expect(slidingWindowSizes(base, 51)).toEqual({ windowSize: 12, batchSize: 5 });
    expect(slidingWindowSizes({ ...base, dynamicWindow: false }, 500)).toEqual({ windowSize: 5, batchSize: 2 });
  });

  it("compresses the oldest batch when the active messages exceed the window", async () => {
    const { manager } = setup({ triggerMode: "sliding_window", windowSize: 10, compressionBatchSize: 4, dynamicWindow: false, keepRecentCount: 2 }, 1_000_000);
    expect((await manager.process(transcriptOf(chat(5, 100)))).created).toEqual([]);
    resetSeq();
    const change = await manager.process(transcriptOf(chat(6, 100)));
    expect(change.created).toHaveLength(1);
    expect(change.created[0]).toMatchObject({ fromSeq: 1, toSeq: 4 });
    expect(change.transcript.messages).toHaveLength(8);
  });

  it("uses the dynamic window: a long conversation keeps more messages and compresses bigger batches", async () => {
    const patch = { triggerMode: "sliding_window" as const, windowSize: 10, compressionBatchSize: 4, dynamicWindow: true, keepRecentCount: 2 };
    const { manager } = setup(patch, 1_000_000);
    resetSeq();
    const messages = chat(8, 100); // 16 active, 16 total: window 10, batch 4
    const young = await manager.process(transcriptOf(messages, { totalMessageCount: 16 }));
    expect(young.created.map((c) => c.coveredMessageCount)).toEqual([4, 4]);
    // Same active messages in a conversation of 500: window 24, batch 10 — nothing to do.
    expect((await manager.process(transcriptOf(messages, { totalMessageCount: 500 }))).created).toEqual([]);
    resetSeq();
    const long = chat(13, 100); // 26 active > 24
    const old = await manager.process(transcriptOf(long, { totalMessageCount: 500 }));
    expect(old.created[0]!.coveredMessageCount).toBe(10);
  });
});

describe("where the cut falls", () => {
  it("never splits an assistant tool call from its results", async () => {
    const { manager } = setup({ triggerMode: "count", countThreshold: 8, countWindow: 4, countKeepRecent: 2 }, 1_000_000);
    const calls = [
      { id: "a", name: "read_file", arguments: '{"path":"/src/app.ts"}' },
      { id: "b", name: "grep", arguments: '{"q":"TODO"}' },
    ];
    const messages = [
      msg("user", "look at the code " + text(200)),
      msg("assistant", "reading " + text(200)),
      msg("user", "and now? " + text(200)),
      msg("assistant", "", { toolCalls: calls }), // seq 4: the window of 4 would end here
      msg("tool", "file body " + text(300), { toolCallId: "a", toolName: "read_file" }),
      msg("tool", "3 matches " + text(300), { toolCallId: "b", toolName: "grep" }),
      msg("assistant", "done " + text(200)),
      msg("user", "thanks " + text(100)),
    ];
    const change = await manager.process(transcriptOf(messages));
    expect(change.created[0]!.toSeq).toBe(3); // moved earlier, before the call
    expect(change.transcript.messages.map((m) => m.seq)).toEqual([4, 5, 6, 7, 8]);
  });

  it("never summarizes pinned messages; they stay in the transcript and the request", async () => {
    const { manager, summarizer } = setup({ triggerMode: "count", countThreshold: 8, countWindow: 6, countKeepRecent: 2 }, 1_000_000);
    const messages = chat(5, 200);
    messages[2] = { ...messages[2]!, pinned: true, content: "PINNED: deploy only on Fridays" };
    const change = await manager.process(transcriptOf(messages));
    const record = change.created[0]!;
    expect(record.fromSeq).toBeLessThan(3);
    expect(record.toSeq).toBeGreaterThan(3);
    expect(record.coveredMessageCount).toBe(record.toSeq - record.fromSeq); // the pinned one is not counted
    expect(summarizer.calls[0]!.messages.map((m) => m.content).join("\n")).not.toContain("PINNED");
    expect(change.transcript.messages.find((m) => m.seq === 3)?.content).toBe("PINNED: deploy only on Fridays");
    const request = manager.buildRequest(change.transcript, await setupSettings());
    const contents = request.messages.map((m) => m.content ?? "");
    const summaryIndex = contents.findIndex((c) => c.startsWith("[Summary of messages"));
    const pinnedIndex = contents.indexOf("PINNED: deploy only on Fridays");
    expect(summaryIndex).toBeGreaterThan(0);
    expect(pinnedIndex).toBeGreaterThan(summaryIndex);
  });

  it("does not summarize the last user message the pending call must answer", async () => {
    const { manager } = setup({ keepRecentCount: 0, threshold: 0.5, preemptiveThreshold: 0.3 });
    await manager.process(transcriptOf([]));
    const messages = [...chat(6, 1200), msg("user", "the new question")];
    const change = await manager.process(transcriptOf(messages));
    expect(change.created).toHaveLength(1);
    expect(change.transcript.messages.at(-1)!.content).toBe("the new question");
  });

  it("records a skip when the threshold is reached but everything is pinned or part of the current turn", async () => {
    const { manager } = setup({ keepRecentCount: 10 });
    const messages = [...chat(3, 4000).map((m) => ({ ...m, pinned: true })), msg("user", text(2000))];
    const change = await manager.process(transcriptOf(messages), { background: true });
    expect(change.created).toEqual([]);
    expect(change.attempts[0]).toMatchObject({ outcome: "skipped" });
    expect(change.attempts[0]!.reason).toMatch(/nothing can be compressed/);
  });

  it("keep-recent is bounded by tokens: huge recent messages are summarized rather than left to be cut", async () => {
    const { manager } = setup({ keepRecentCount: 10 });
    const transcript = transcriptOf(chat(3, 4000)); // 6 huge messages, all within keepRecentCount
    const budget = manager.budget(transcript);
    expect(budget.keepTokens).toBeLessThan(transcript.messages.reduce((s, m) => s + m.tokens, 0));
    const change = await manager.process(transcript, { background: true });
    expect(change.created.length).toBeGreaterThan(0);
    // The current turn (the last user message and after) stays whatever its size.
    const lastUser = transcript.messages.findLast((m) => m.role === "user")!.seq;
    for (const record of change.created) expect(record.toSeq).toBeLessThan(lastUser);
  });
});
