import { beforeEach, describe, expect, it } from "vitest";
import { logAttempts } from "@/lib/compression/change";
import { chat, MemoryLogger, resetSeq, setup, transcriptOf , summaryRecord } from "./fakes";

beforeEach(() => resetSeq());

const countMode = { triggerMode: "count" as const, countThreshold: 10, countWindow: 8, countKeepRecent: 2, countSummaryMaxChars: 100_000 };

describe("summary failures", () => {
  const cases = [
    { name: "throws", behaviour: "throw" as const, reason: "summary model call failed: 503 upstream unavailable", patch: {} },
    // The call's own timeout and the pass deadline are both 50 ms here; either may say so first.
    { name: "times out", behaviour: "hang" as const, reason: /(timed out after|ran past its) 50 ms/, patch: { summaryTimeoutMs: 50 } },
    { name: "returns empty output", behaviour: "empty" as const, reason: "summary model returned empty output", patch: {} },
  ];
  for (const testCase of cases) {
    it(`records a failed attempt and changes nothing when the summary model ${testCase.name}`, async () => {
      const { manager, summarizer } = setup({ ...countMode, ...testCase.patch }, 1_000_000);
      summarizer.behaviour = testCase.behaviour;
      const transcript = transcriptOf(chat(6, 200));
      const snapshot = structuredClone(transcript);
      const change = await manager.process(transcript);
      expect(change.created).toEqual([]);
      expect(change.transcript).toEqual(snapshot);
      expect(transcript).toEqual(snapshot); // the input is never mutated
      expect(change.attempts).toHaveLength(1);
      const attempt = change.attempts[0]!;
      expect(attempt.outcome).toBe("failed");
      expect(attempt.reason).toMatch(testCase.reason);
      expect("compactionId" in attempt).toBe(false);
      expect(attempt.model).toBe("summary-model");
    });
  }

  it("a structured summary answered in prose falls back to a plain summary and says so", async () => {
    const { manager, summarizer } = setup({ ...countMode, strategy: "structured" }, 1_000_000);
    summarizer.respond = (request) => (request.json ? "Here is what happened: the user asked questions." : undefined);
    const change = await manager.process(transcriptOf(chat(6, 200)));
    expect(change.created).toHaveLength(1);
    expect(summaryRecord(change.created[0]).sections).toBeUndefined();
    // The fake's plain reply (its "Summary:" heading dropped like any copied framing), not rendered sections.
    expect(change.created[0]!.summary).toMatch(/^the user and assistant worked on the task\./);
    expect(change.attempts[0]!.outcome).toBe("applied");
    expect(change.attempts[0]!.reason).toMatch(/structured summary fell back to plain text \(summary model returned invalid JSON/);
    expect(summarizer.calls.map((call) => Boolean(call.json))).toEqual([true, false]);
  });

  it("honours the caller's abort signal", async () => {
    const { manager, summarizer } = setup(countMode, 1_000_000);
    summarizer.behaviour = "hang";
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const change = await manager.process(transcriptOf(chat(6, 200)), { signal: controller.signal });
    expect(change.attempts[0]).toMatchObject({ outcome: "failed", reason: "summary cancelled by the caller" });
  });

  it("a summary that is not shorter than what it replaces is a failure", async () => {
    const { manager, summarizer } = setup(countMode, 1_000_000);
    summarizer.respond = () => "padding ".repeat(2000);
    const change = await manager.process(transcriptOf(chat(6, 50)));
    expect(change.created).toEqual([]);
    expect(change.attempts[0]!.outcome).toBe("failed");
    expect(change.attempts[0]!.reason).toMatch(/is not shorter than the [\d,]+ tokens it replaces/);
  });

  it("a failure still lets the hard limit truncate in the foreground", async () => {
    const { manager, summarizer } = setup({ keepRecentCount: 2 });
    summarizer.behaviour = "throw";
    const change = await manager.process(transcriptOf(chat(12, 1000)));
    // Over the hard limit a failed summary is tried once more before anything is cut.
    expect(change.attempts.map((a) => a.outcome)).toEqual(["failed", "failed", "applied"]);
    expect(change.created.map((c) => c.kind)).toEqual(["truncation"]);
  });
});

describe("settings read on every use", () => {
  it("uses the snapshot it is given, so a change applies on the next call", async () => {
    const { manager, settings, summarizer } = setup(countMode, 1_000_000);
    const transcript = transcriptOf(chat(6, 200));
    settings.set({ enabled: false });
    expect((await manager.process(transcript)).created).toEqual([]);
    settings.set({ enabled: true, strategy: "simple_extract", extractFieldMaxChars: 40 });
    const change = await manager.process(transcript);
    expect(change.created[0]!.strategy).toBe("simple_extract");
    expect(summarizer.calls).toHaveLength(0);
    settings.set({ strategy: "ai_summary", countThreshold: 20 });
    expect((await manager.process(transcript)).created).toEqual([]);
  });
});

describe("logging", () => {
  it("logs every attempt with the fields monitoring needs", async () => {
    const { manager } = setup(countMode, 1_000_000);
    const change = await manager.process(transcriptOf(chat(6, 200)));
    const logger = new MemoryLogger();
    logAttempts(logger, "conv-1", change.attempts);
    const entry = logger.entries.find((e) => e.fields.outcome === "applied")!;
    expect(entry.level).toBe("info");
    expect(entry.fields).toMatchObject({
      conversationId: "conv-1",
      trigger: "auto",
      strategy: "ai_summary",
      model: "summary-model",
      outcome: "applied",
      messagesBefore: 12,
      messagesAfter: 5,
      compactionId: change.created[0]!.id,
    });
    for (const key of ["reason", "tokensBefore", "tokensAfter", "durationMs"]) expect(entry.fields).toHaveProperty(key);
    expect(entry.fields.tokensAfter as number).toBeLessThan(entry.fields.tokensBefore as number);
    const record = change.created[0]!;
    expect(record).toMatchObject({ messagesBefore: 12, messagesAfter: 5, createdAt: new Date("2025-01-01T00:00:00Z") });
    expect(record.tokensAfter).toBe(manager.measure(change.transcript).totalTokens);
  });
});
