import { beforeEach, describe, expect, it } from "vitest";
import { historyNotice } from "@/lib/compression/recall";
import { DEFAULT_SETTINGS } from "@/lib/compression/settings";
import { assertValidToolPairs, compaction, msg, resetSeq, setup, text, transcriptOf, WINDOW } from "./fakes";

// What every request carries after the system prompt once something is compressed (default recall mode).
const NOTICE = historyNotice({ compactions: [compaction("x", 1, 1)] }, DEFAULT_SETTINGS, WINDOW)!;

beforeEach(() => resetSeq());

describe("buildRequest", () => {
  it("orders summaries and messages by position and renders summaries as system messages", async () => {
    const { manager } = setup();
    const transcript = transcriptOf(
      [msg("user", "pinned early", { seq: 5, pinned: true }), msg("user", "q", { seq: 21 }), msg("assistant", "a", { seq: 22 })],
      { compactions: [compaction("a", 1, 10, { level: 2 }), compaction("b", 11, 20)] },
    );
    const request = manager.buildRequest(transcript);
    expect(request.messages).toEqual([
      { role: "system", content: "You are a helpful assistant." },
      { role: "system", content: NOTICE },
      { role: "system", content: "[Summary of messages 1–10 (level 2)]\nsummary a" },
      { role: "user", content: "pinned early" },
      { role: "system", content: "[Summary of messages 11–20 (level 1)]\nsummary b" },
      { role: "user", content: "q" },
      { role: "assistant", content: "a" },
    ]);
    expect(request.breakdown.summaryTokens).toBeGreaterThan(0);
    const ours = request.breakdown.systemTokens + request.breakdown.summaryTokens + request.breakdown.messageTokens + request.breakdown.toolTokens;
    expect(request.breakdown.totalTokens).toBe(Math.ceil(ours * request.breakdown.calibration.factor));
  });

  it("leaves out a reply with no text and no tool calls (stopped while its model was thinking)", () => {
    const { manager } = setup();
    const transcript = transcriptOf([msg("user", "q", { seq: 1 }), msg("assistant", "  ", { seq: 2 }), msg("user", "again", { seq: 3 }), msg("assistant", "a", { seq: 4 })]);
    const request = manager.buildRequest(transcript);
    expect(request.messages.map((m) => [m.role, m.content])).toEqual([
      ["system", "You are a helpful assistant."],
      ["user", "q"],
      ["user", "again"],
      ["assistant", "a"],
    ]);
  });

  it("drops orphan tool results and strips tool calls whose results are missing", async () => {
    const { manager } = setup();
    const transcript = transcriptOf(
      [
        msg("tool", "orphan result", { seq: 4, toolCallId: "gone" }), // its call was summarized away
        msg("user", "go on", { seq: 5 }),
        msg("assistant", "let me check", { seq: 6, toolCalls: [{ id: "x", name: "ls", arguments: "{}" }, { id: "y", name: "cat", arguments: "{}" }] }),
        msg("tool", "only x answered", { seq: 7, toolCallId: "x" }),
        msg("assistant", "", { seq: 8, toolCalls: [{ id: "z", name: "ls", arguments: "{}" }] }), // no result at all, no text
        msg("user", "and?", { seq: 9 }),
        msg("assistant", "", { seq: 10, toolCalls: [{ id: "ok", name: "ls", arguments: "{}" }] }),
        msg("tool", "fine", { seq: 11, toolCallId: "ok" }),
      ],
      { compactions: [compaction("s", 1, 3)] },
    );
    const request = manager.buildRequest(transcript);
    assertValidToolPairs(request.messages);
    expect(request.messages.map((m) => m.content)).toEqual([
      "You are a helpful assistant.",
      NOTICE,
      "[Summary of messages 1–3 (level 1)]\nsummary s",
      "go on",
      "let me check",
      "and?",
      null,
      "fine",
    ]);
    expect(request.messages[4]).toEqual({ role: "assistant", content: "let me check" });
  });

  it("adds the budget note when asked", async () => {
    const { manager, settings } = setup({ budgetNote: true, contextWindowOverrides: { "chat-model": 128_000 } });
    const transcript = transcriptOf([msg("user", text(4 * 52_464))], { systemPrompt: "" });
    const request = manager.buildRequest(transcript);
    const used = Math.round(manager.measure(transcript).ratio * 100);
    expect(used).toBeGreaterThan(40);
    expect(request.messages.at(-1)).toEqual({ role: "system", content: `Context: ${used}% of 128,000 tokens used; automatic compression at 80%.` });
    const off = manager.buildRequest(transcript, { ...(settings.snapshot()), enabled: false });
    expect(off.messages.at(-1)!.content).toBe(`Context: ${used}% of 128,000 tokens used; automatic compression is off.`);
  });

  it("renders structured and truncation compactions", async () => {
    const { manager } = setup();
    const sections = { goals: ["ship"], decisions: [], completed: [], openItems: ["test"], facts: ["FACT v=1"] };
    const transcript = transcriptOf([msg("user", "hi", { seq: 30 })], {
      compactions: [
        compaction("t", 1, 10, { kind: "truncation", strategy: "truncation", trigger: "hard_limit", summary: "[Earlier conversation truncated: 10 messages, 900 tokens dropped from the model's view to fit the context window]" }),
        compaction("s", 11, 29, { strategy: "structured", sections, summary: "Goals:\n- ship\n\nOpen items:\n- test\n\nFacts:\nFACT v=1" }),
      ],
    });
    const request = manager.buildRequest(transcript);
    expect(request.messages[2]!.content).toBe("[Earlier conversation truncated: 10 messages, 900 tokens dropped from the model's view to fit the context window]");
    expect(request.messages[3]!.content).toBe("[Summary of messages 11–29 (level 1)]\nGoals:\n- ship\n\nOpen items:\n- test\n\nFacts:\nFACT v=1");
  });
});
