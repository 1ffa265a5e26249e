// Boundaries the engine's other tests pass over: each case here was written against a
// named mutant that survived them (the threshold compared with <= instead of <, the
// threshold raised by one percent).
import { describe, expect, it } from "vitest";
import type { Transcript, TranscriptMessage } from "@/lib/compression/types";
import { exactUsage, msg, resetSeq, setup, transcriptOf, WINDOW } from "./fakes";

/** A transcript whose measured total is exactly `total` tokens (calibration factor 1). */
function transcriptOfTotal(total: number): Transcript {
  resetSeq();
  const messages: TranscriptMessage[] = [];
  for (let i = 0; i < 12; i++) {
    const role = i % 2 === 0 ? "user" : "assistant";
    // The usage reports the server counting as we do, so the count is taken as it stands.
    messages.push(role === "assistant" ? msg(role, `answer ${i}`, { usage: exactUsage(100) }) : msg(role, `question ${i}`));
  }
  const base = transcriptOf(messages);
  const fixed = base.systemPromptTokens;
  // Every message costs the same, the last one takes the remainder: the total is set exactly.
  const each = Math.floor((total - fixed) / messages.length);
  const sized = messages.map((m, i) => ({ ...m, tokens: i === messages.length - 1 ? total - fixed - each * (messages.length - 1) : each }));
  return { ...base, messages: sized };
}

describe("token trigger boundary", () => {
  const threshold = 0.8;
  // Computed here, not read from the engine: a threshold moved by the engine must show.
  const thresholdTokens = Math.floor(WINDOW * threshold);

  it("stays quiet one token under the threshold and fires at it and one over", async () => {
    const { manager, summarizer } = setup({ threshold, preemptiveThreshold: 0.5 });
    for (const [total, fires] of [
      [thresholdTokens - 1, false],
      [thresholdTokens, true],
      [thresholdTokens + 1, true],
    ] as const) {
      const transcript = transcriptOfTotal(total);
      const measured = manager.measure(transcript);
      expect(measured.calibration.factor).toBe(1);
      expect(measured.totalTokens).toBe(total);
      const change = await manager.process(transcript);
      expect({ total, fired: change.created.length > 0 }).toEqual({ total, fired: fires });
    }
    expect(summarizer.calls.length).toBeGreaterThan(0);
  });

  it("the pre-emptive threshold has the same boundary after a reply", async () => {
    const preemptive = 0.5;
    const preemptiveTokens = Math.floor(WINDOW * preemptive);
    // Two kept messages: a compaction here frees more than threshold less target, so it does not wait (below).
    const { engine, settings } = setup({ threshold, preemptiveThreshold: preemptive, keepRecentCount: 2 });
    for (const [total, due] of [
      [preemptiveTokens - 1, false],
      [preemptiveTokens, true],
      [preemptiveTokens + 1, true],
    ] as const) {
      expect({ total, due: engine.dueAfterReply(transcriptOfTotal(total), settings.snapshot()) }).toEqual({ total, due });
    }
  });

  it("a pre-emptive compaction that would free less than threshold less target waits, until the threshold less 10 points", async () => {
    const preemptive = 0.5;
    // 70% of the window: the latest a pre-emptive compaction may start (80% less 10 points).
    const latest = Math.floor(WINDOW * 0.7);
    const { engine, settings } = setup({ threshold, preemptiveThreshold: preemptive });
    // Ten short messages, then the turn under way (never summarized) holding the rest: all
    // there is to take frees far less than 80% − 48% of the window.
    const withLongTurn = (total: number): Transcript => {
      const base = transcriptOfTotal(total);
      const rest = total - base.systemPromptTokens - 10 * 40;
      return { ...base, messages: base.messages.map((m, i) => ({ ...m, tokens: i < 10 ? 40 : i === 10 ? Math.floor(rest / 2) : rest - Math.floor(rest / 2) })) };
    };
    for (const [total, due] of [
      [Math.floor(WINDOW * preemptive), false],
      [latest - 1, false],
      [latest, true],
    ] as const) {
      expect({ total, due: engine.dueAfterReply(withLongTurn(total), settings.snapshot()) }).toEqual({ total, due });
    }
    // Evenly spread with two messages kept, the same total frees enough: it starts at the pre-emptive threshold.
    const open = setup({ threshold, preemptiveThreshold: preemptive, keepRecentCount: 2 });
    expect(open.engine.dueAfterReply(transcriptOfTotal(Math.floor(WINDOW * preemptive)), open.settings.snapshot())).toBe(true);
  });
});
