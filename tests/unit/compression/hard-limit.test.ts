import { beforeEach, describe, expect, it } from "vitest";
import { UNCALIBRATED_FACTOR } from "@/lib/compression/measure";
import type { CompactionRecord } from "@/lib/compression/types";
import { chat, msg, resetSeq, setup, text, transcriptOf, WINDOW, wireTokens } from "./fakes";

beforeEach(() => resetSeq());

const HARD_LIMIT = WINDOW - 200;
const NOTE = /^\[Earlier conversation truncated: [\d,]+ messages, [\d,]+ tokens dropped from the model's view to fit the context window(\. The specifics it held follow\.)?\]/;

function summary(id: string, fromSeq: number, toSeq: number, level = 1): CompactionRecord {
  return {
    id, level, kind: "summary", trigger: "auto", strategy: "ai_summary", fromSeq, toSeq,
    summary: `summary ${id}: the deploy key lives in vault slot ${fromSeq * 7}.`, summaryTokens: 3, coveredMessageCount: toSeq - fromSeq + 1, coveredTokens: 1000,
    childIds: [], keptSeqs: [], background: false, durationMs: 1, messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0,
    createdAt: new Date(0),
  };
}

describe("hard-limit truncation", () => {
  it("truncates as soon as the request passes the hard limit, not only far past it, and records it", async () => {
    // The smallest conversation over the hard limit: it passes the limit by less than one turn.
    const { manager } = setup({ enabled: false, keepRecentCount: 2 });
    let turns = 1;
    let transcript = transcriptOf(chat(turns, 300));
    while (manager.measure(transcript).totalTokens <= HARD_LIMIT) {
      resetSeq();
      transcript = transcriptOf(chat(++turns, 300));
    }
    expect(manager.measure(transcript).totalTokens).toBeLessThan(HARD_LIMIT * 1.1);
    const change = await manager.process(transcript);
    // A request cut at the last moment would fit too; the record is what says it happened.
    expect(change.created.map((c) => c.kind)).toEqual(["truncation"]);
    expect(manager.measure(change.transcript).totalTokens).toBeLessThanOrEqual(HARD_LIMIT);
  });

  it("a backlog longer than one turn's summaries is cut only after them, and the cut says so", async () => {
    const { manager } = setup({});
    // About 48 rounds of summaries at this window: more than one turn writes while the user waits.
    const change = await manager.process(transcriptOf(chat(700, 300)));
    expect(change.attempts.filter((a) => a.strategy === "ai_summary" && a.outcome === "applied").length).toBeGreaterThanOrEqual(32);
    expect(change.created.at(-1)).toMatchObject({ kind: "truncation" });
    expect(change.attempts.at(-1)!.reason).toMatch(/exceeds the hard limit of 3,800 \(window 4,000 minus reserve 200\) and the 32 summaries one turn may write are written/);
    expect(manager.measure(change.transcript).totalTokens).toBeLessThanOrEqual(HARD_LIMIT);
  });

  it("drops everything before the kept tail, superseding summaries, and the request fits", async () => {
    const { manager } = setup({ enabled: false, keepRecentCount: 4 });
    resetSeq(11);
    const transcript = transcriptOf(chat(15, 800), { compactions: [summary("old", 1, 10)] });
    const change = await manager.process(transcript);
    expect(change.created).toHaveLength(1);
    const record = change.created[0]!;
    expect(record).toMatchObject({ kind: "truncation", trigger: "hard_limit", strategy: "truncation", level: 2, childIds: ["old"], fromSeq: 1, toSeq: 36 });
    expect(record.summary).toMatch(NOTE);
    // What the dropped summary said is carried in the truncation note, not lost.
    expect(record.summary).toContain("summary old: the deploy key lives in vault slot 7.");
    expect(record.coveredMessageCount).toBe(10 + 26);
    expect(change.transcript.compactions).toEqual([record]);
    expect(change.transcript.messages.map((m) => m.seq)).toEqual([37, 38, 39, 40]);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["skipped", "applied"]); // "disabled", then the truncation
    expect(change.attempts[1]).toMatchObject({ outcome: "applied", trigger: "hard_limit", strategy: "truncation", compactionId: record.id });
    const request = manager.buildRequest(change.transcript);
    // After the system prompt and the history notice.
    expect(request.messages[2]!.content).toBe(record.summary);
    expect(request.messages.reduce((s, m) => s + wireTokens(m), 0)).toBeLessThanOrEqual(HARD_LIMIT);
  });

  it("keeps fewer than keepRecentCount when those do not fit, never less than the current turn", async () => {
    const { manager } = setup({ enabled: false, keepRecentCount: 12 });
    const messages = [];
    for (let turn = 0; turn < 4; turn++) {
      messages.push(msg("user", `please run analysis ${turn}`));
      messages.push(msg("assistant", "", { toolCalls: [{ id: `t${turn}`, name: "analyze", arguments: "{}" }] }));
      // The bulk is in the replies: a tool result this size would be cut to 10% of the window in the request.
      messages.push(msg("tool", `result ${turn}`, { toolCallId: `t${turn}`, toolName: "analyze" }));
      messages.push(msg("assistant", `analysis ${turn} done ${text(4800)}`));
    }
    messages.push(msg("user", "and now the summary of all three"));
    const change = await manager.process(transcriptOf(messages));
    expect(change.created.map((c) => c.kind)).toEqual(["truncation"]);
    const kept = change.transcript.messages;
    expect(kept.at(-1)!.content).toBe("and now the summary of all three");
    expect(kept[0]!.role).not.toBe("tool"); // the tail never starts on a tool result
    expect(kept.length).toBeLessThan(12); // twelve (three analyses) would not fit
    expect(kept.filter((m) => m.role === "assistant" && m.content.length > 1000).length).toBe(2); // two do
    const request = manager.buildRequest(change.transcript);
    expect(request.messages.reduce((s, m) => s + wireTokens(m), 0)).toBeLessThanOrEqual(HARD_LIMIT);
  });

  it("never drops the current turn: its oversized tool results are cut in the request instead", async () => {
    const { manager } = setup({ enabled: false, keepRecentCount: 4 });
    const messages = [...chat(2, 200), msg("user", "please run the analysis")];
    for (let i = 0; i < 4; i++) {
      messages.push(msg("assistant", "", { toolCalls: [{ id: `t${i}`, name: "analyze", arguments: "{}" }] }));
      messages.push(msg("tool", `RESULT ${i} ${text(8000)} END ${i}`, { toolCallId: `t${i}`, toolName: "analyze" }));
    }
    const change = await manager.process(transcriptOf(messages));
    const seqs = change.transcript.messages.map((m) => m.seq);
    for (const message of messages.slice(4)) expect(seqs).toContain(message.seq);
    const request = manager.buildRequest(change.transcript);
    expect(request.messages.reduce((s, m) => s + wireTokens(m), 0)).toBeLessThanOrEqual(HARD_LIMIT);
    expect(request.messages.some((m) => m.role === "user" && m.content === "please run the analysis")).toBe(true);
    const results = request.messages.filter((m) => m.role === "tool");
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect(result.content).toMatch(/^RESULT \d /);
  });

  it("a single message larger than the window is elided in the request only", async () => {
    const { manager } = setup({ keepRecentCount: 4 });
    const huge = `START ${text(40_000)} END`;
    const transcript = transcriptOf([...chat(2, 200), msg("user", huge)]);
    const change = await manager.process(transcript);
    const request = manager.buildRequest(change.transcript);
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
    const { manager } = setup();
    const empty = await manager.process(transcriptOf([]));
    expect(empty).toMatchObject({ created: [], attempts: [] });
    expect(manager.buildRequest(empty.transcript).messages).toEqual([{ role: "system", content: "You are a helpful assistant." }]);
    expect(manager.buildRequest(transcriptOf([], { systemPrompt: "" })).messages).toEqual([]);
    expect((await manager.compactNow(transcriptOf([]))).attempts[0]).toMatchObject({ outcome: "skipped" });
    const breakdown = manager.measure(transcriptOf([], { systemPrompt: "" }));
    expect(breakdown).toMatchObject({ summaryTokens: 0, messageTokens: 0, totalTokens: 0, contextWindow: WINDOW });
  });

  it("all messages pinned: nothing is summarized or truncated, the request still fits", async () => {
    const { manager, summarizer } = setup({ keepRecentCount: 0 });
    const messages = chat(6, 1600).map((m) => ({ ...m, pinned: true }));
    const change = await manager.process(transcriptOf(messages));
    expect(summarizer.calls).toHaveLength(0);
    expect(change.created).toEqual([]);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["skipped", "skipped"]);
    expect(change.attempts[1]!.reason).toMatch(/nothing can be dropped/);
    const request = manager.buildRequest(change.transcript);
    expect(request.messages.reduce((s, m) => s + wireTokens(m), 0)).toBeLessThanOrEqual(HARD_LIMIT);
    expect(request.messages.at(-1)!.content).toBe(messages.at(-1)!.content);
  });
});

describe("measure: our count, turned into the server's", () => {
  it("before the server has reported anything, plans with a safety margin", () => {
    const { manager } = setup();
    const messages = [msg("user", text(400)), msg("assistant", text(400))];
    const ours = transcriptOf(messages).systemPromptTokens + messages.reduce((s, m) => s + m.tokens, 0);
    const breakdown = manager.measure(transcriptOf(messages));
    expect(breakdown.calibration).toEqual({ source: "margin", factor: UNCALIBRATED_FACTOR });
    expect(breakdown.totalTokens).toBe(Math.ceil(ours * UNCALIBRATED_FACTOR));
    expect(breakdown.correctionTokens).toBe(breakdown.totalTokens - ours);
  });

  it("scales by the newest reported usage: the server's prompt count over ours of the same request", () => {
    const { manager } = setup();
    const plain = [msg("user", text(400)), msg("assistant", text(400), { usage: { promptTokens: 900, completionTokens: 10, requestTokens: 1000 } }), msg("user", text(400))];
    const ours = transcriptOf(plain).systemPromptTokens + plain.reduce((s, m) => s + m.tokens, 0);
    const corrected = manager.measure(transcriptOf(plain));
    expect(corrected.calibration).toEqual({ source: "reported", factor: 0.9 });
    expect(corrected.totalTokens).toBe(Math.ceil(ours * 0.9));
    expect(corrected.ratio).toBeCloseTo(corrected.totalTokens / WINDOW);
    const newer = [...plain, msg("assistant", "x", { usage: { promptTokens: 2000, completionTokens: 1, requestTokens: 1600 } })];
    expect(manager.measure(transcriptOf(newer)).calibration.factor).toBe(1.25);
    // A server reporting nonsense is clamped, never trusted to zero the context.
    const absurd = [msg("assistant", "x", { usage: { promptTokens: 0, completionTokens: 1, requestTokens: 99_999 } })];
    expect(manager.measure(transcriptOf(absurd)).calibration.source).toBe("margin");
    const tiny = [msg("assistant", "x", { usage: { promptTokens: 1, completionTokens: 1, requestTokens: 99_999 } })];
    expect(manager.measure(transcriptOf(tiny)).calibration.factor).toBe(0.5);
  });

  it("a server that counts more than we do triggers compression earlier; overrides change the window", async () => {
    const { manager } = setup({ contextWindowOverrides: { "chat-model": 6000 } });
    const base = [...chat(8, 400), msg("assistant", "ok", { usage: { promptTokens: 1000, completionTokens: 1, requestTokens: 1000 } }), msg("user", "next")];
    expect(manager.measure(transcriptOf(base)).contextWindow).toBe(6000);
    expect(manager.measure(transcriptOf(base)).ratio).toBeLessThan(0.35);
    expect((await manager.process(transcriptOf(base))).created).toEqual([]);
    resetSeq();
    const heavy = [...chat(8, 400), msg("assistant", "ok", { usage: { promptTokens: 2900, completionTokens: 1, requestTokens: 1000 } }), msg("user", "next")];
    expect(manager.measure(transcriptOf(heavy)).ratio).toBeGreaterThan(0.8);
    expect((await manager.process(transcriptOf(heavy))).created).toHaveLength(1);
  });

  it("tool definitions count as part of the request", () => {
    const { manager } = setup();
    const messages = chat(2, 200);
    const without = manager.measure(transcriptOf(messages));
    const withTools = manager.measure(transcriptOf(messages, { toolTokens: 500 }));
    expect(withTools.toolTokens).toBe(500);
    expect(withTools.totalTokens).toBe(Math.ceil((without.totalTokens / UNCALIBRATED_FACTOR + 500) * UNCALIBRATED_FACTOR));
  });
});
