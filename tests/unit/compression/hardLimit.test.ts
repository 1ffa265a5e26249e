import { beforeEach, describe, expect, it } from "vitest";
import type { CompactionRecord } from "@/lib/compression/types";
import { chat, msg, resetSeq, setup, text, transcriptOf, WINDOW, wireTokens } from "./fakes";

beforeEach(() => resetSeq());

const HARD_LIMIT = WINDOW - 200;
const NOTE = /^\[Earlier conversation truncated: [\d,]+ messages, [\d,]+ tokens dropped from the model's view to fit the context window\]$/;

function summary(id: string, fromSeq: number, toSeq: number, level = 1): CompactionRecord {
  return {
    id, level, kind: "summary", trigger: "auto", strategy: "ai_summary", fromSeq, toSeq,
    summary: `summary ${id}`, summaryTokens: 3, coveredMessageCount: toSeq - fromSeq + 1, coveredTokens: 1000,
    childIds: [], background: false, durationMs: 1, messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0,
    createdAt: new Date(0),
  };
}

describe("hard-limit truncation (REQ-3.4)", () => {
  it("drops everything before the kept tail, superseding summaries, and the request fits", async () => {
    const { manager, settings } = setup({ enabled: false, keepRecentCount: 4 });
    resetSeq(11);
    const transcript = transcriptOf(chat(15, 800), { compactions: [summary("old", 1, 10)] });
    const change = await manager.process(transcript);
    expect(change.created).toHaveLength(1);
    const record = change.created[0]!;
    expect(record).toMatchObject({ kind: "truncation", trigger: "hard_limit", strategy: "truncation", level: 2, childIds: ["old"], fromSeq: 1, toSeq: 36 });
    expect(record.summary).toMatch(NOTE);
    expect(record.coveredMessageCount).toBe(10 + 26);
    expect(change.transcript.compactions).toEqual([record]);
    expect(change.transcript.messages.map((m) => m.seq)).toEqual([37, 38, 39, 40]);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["skipped", "applied"]); // "disabled", then the truncation
    expect(change.attempts[1]).toMatchObject({ outcome: "applied", trigger: "hard_limit", strategy: "truncation", compactionId: record.id });
    const request = manager.buildRequest(change.transcript, await settings.read());
    expect(request.messages[1]!.content).toBe(record.summary);
    expect(request.messages.reduce((s, m) => s + wireTokens(m), 0)).toBeLessThanOrEqual(HARD_LIMIT);
  });

  it("keeps fewer than keepRecentCount when those do not fit, but always the last user message", async () => {
    const { manager, settings } = setup({ enabled: false, keepRecentCount: 4 });
    const messages = [msg("user", "please run the analysis")];
    for (let i = 0; i < 8; i++) {
      messages.push(msg("assistant", "", { toolCalls: [{ id: `t${i}`, name: "analyze", arguments: "{}" }] }));
      messages.push(msg("tool", text(8000), { toolCallId: `t${i}`, toolName: "analyze" }));
    }
    const change = await manager.process(transcriptOf(messages));
    expect(change.created.every((c) => c.kind === "truncation")).toBe(true);
    const kept = change.transcript.messages;
    expect(kept[0]!.content).toBe("please run the analysis");
    expect(kept.map((m) => m.seq)).toEqual([1, 16, 17]); // two results would not fit; one pair does
    expect(kept.at(-1)!.seq).toBe(17);
    expect(kept[1]!.role).toBe("assistant"); // the tail never starts on a tool result
    const request = manager.buildRequest(change.transcript, await settings.read());
    expect(request.messages.reduce((s, m) => s + wireTokens(m), 0)).toBeLessThanOrEqual(HARD_LIMIT);
    expect(request.messages.some((m) => m.role === "user" && m.content === "please run the analysis")).toBe(true);
  });

  it("a single message larger than the window is elided in the request only", async () => {
    const { manager, settings } = setup({ keepRecentCount: 4 });
    const huge = `START ${text(40_000)} END`;
    const transcript = transcriptOf([...chat(2, 200), msg("user", huge)]);
    const change = await manager.process(transcript);
    const request = manager.buildRequest(change.transcript, await settings.read());
    const last = request.messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(last.content).toMatch(/^START /);
    expect(last.content).toMatch(/ END$/);
    expect(last.content).toMatch(/\[… [\d,]+ tokens elided …\]/);
    expect(request.messages.reduce((s, m) => s + wireTokens(m), 0)).toBeLessThanOrEqual(HARD_LIMIT);
    expect(request.breakdown.totalTokens).toBeLessThanOrEqual(HARD_LIMIT);
    expect(change.transcript.messages.at(-1)!.content).toBe(huge); // stored text untouched
  });

  it("handles an empty history and a bare system prompt", async () => {
    const { manager, settings } = setup();
    const empty = await manager.process(transcriptOf([]));
    expect(empty).toMatchObject({ created: [], attempts: [] });
    const s = await settings.read();
    expect(manager.buildRequest(empty.transcript, s).messages).toEqual([{ role: "system", content: "You are a helpful assistant." }]);
    expect(manager.buildRequest(transcriptOf([], { systemPrompt: "" }), s).messages).toEqual([]);
    expect((await manager.compactNow(transcriptOf([]))).attempts[0]).toMatchObject({ outcome: "skipped" });
    const breakdown = manager.measure(transcriptOf([]));
    expect(breakdown).toMatchObject({ summaryTokens: 0, messageTokens: 0, correctionTokens: 0, contextWindow: WINDOW });
  });

  it("all messages pinned: nothing is summarized or truncated, the request still fits", async () => {
    const { manager, settings, summarizer } = setup({ keepRecentCount: 0 });
    const messages = chat(6, 1600).map((m) => ({ ...m, pinned: true }));
    const change = await manager.process(transcriptOf(messages));
    expect(summarizer.calls).toHaveLength(0);
    expect(change.created).toEqual([]);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["skipped", "skipped"]);
    expect(change.attempts[1]!.reason).toMatch(/nothing can be dropped/);
    const request = manager.buildRequest(change.transcript, await settings.read());
    expect(request.messages.reduce((s, m) => s + wireTokens(m), 0)).toBeLessThanOrEqual(HARD_LIMIT);
    expect(request.messages.at(-1)!.content).toBe(messages.at(-1)!.content);
  });
});

describe("measure", () => {
  it("adds the correction from the newest reported usage", async () => {
    const { manager } = setup();
    await manager.process(transcriptOf([]));
    const plain = [msg("user", text(400)), msg("assistant", text(400), { usage: { promptTokens: 900, completionTokens: 10, requestTokens: 1000 } }), msg("user", text(400))];
    const base = manager.measure(transcriptOf(plain.map((m) => ({ ...m, usage: undefined }) as typeof m)));
    const corrected = manager.measure(transcriptOf(plain));
    expect(corrected.correctionTokens).toBe(-100);
    expect(corrected.totalTokens).toBe(base.totalTokens - 100);
    expect(corrected.ratio).toBeCloseTo(corrected.totalTokens / WINDOW);
    const newer = [...plain, msg("assistant", "x", { usage: { promptTokens: 2000, completionTokens: 1, requestTokens: 1500 } })];
    expect(manager.measure(transcriptOf(newer)).correctionTokens).toBe(500);
    const absurd = [msg("assistant", "x", { usage: { promptTokens: 0, completionTokens: 1, requestTokens: 99_999 } })];
    expect(manager.measure(transcriptOf(absurd)).totalTokens).toBe(0);
  });

  it("a positive correction can trigger compression; overrides change the window", async () => {
    const { manager } = setup({ contextWindowOverrides: { "chat-model": 8000 } });
    const messages = [...chat(4, 400), msg("assistant", "ok", { usage: { promptTokens: 7000, completionTokens: 1, requestTokens: 1000 } }), msg("user", "next")];
    await manager.process(transcriptOf([]));
    const breakdown = manager.measure(transcriptOf(messages));
    expect(breakdown.contextWindow).toBe(8000);
    expect(breakdown.ratio).toBeGreaterThan(0.8);
    expect((await manager.process(transcriptOf(messages))).created).toHaveLength(1);
  });
});
