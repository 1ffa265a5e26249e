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
    const { engine, settings } = setup({ threshold, preemptiveThreshold: preemptive });
    for (const [total, due] of [
      [preemptiveTokens - 1, false],
      [preemptiveTokens, true],
      [preemptiveTokens + 1, true],
    ] as const) {
      expect({ total, due: engine.dueAfterReply(transcriptOfTotal(total), settings.snapshot()) }).toEqual({ total, due });
    }
  });
});
