import { beforeEach, describe, expect, it } from "vitest";
import { COMPRESS_CONTEXT_TOOL, providedSummaryOf } from "@/lib/compression/tools";
import { renderedCompactionTokens } from "@/lib/compression/render";
import { chat, compaction, counter, msg, resetSeq, setup, text, transcriptOf } from "./fakes";

beforeEach(() => resetSeq());

describe("applyProvided", () => {
  it("stores the chat model's own summary over everything but the newest messages", async () => {
    const { manager, settings } = setup({ keepRecentCount: 4 });
    resetSeq(11);
    const messages = chat(6, 400);
    messages[0] = { ...messages[0]!, content: `${messages[0]!.content} FACT city=Oslo` };
    const transcript = transcriptOf(messages, { compactions: [compaction("older", 1, 10, { level: 2, coveredMessageCount: 10 })] });
    const change = manager.applyProvided(transcript, { summary: "We planned the trip.", trigger: "tool" }, settings.snapshot());
    expect(change.created).toHaveLength(1);
    expect(change.created[0]).toMatchObject({
      kind: "summary", trigger: "tool", strategy: "model_provided", level: 3, childIds: ["older"], fromSeq: 1, toSeq: 18, summaryModel: "chat-model",
    });
    // The model forgot a fact; it is restored.
    expect(change.created[0]!.summary).toBe("We planned the trip.\nFACT city=Oslo (#11)");
    expect(change.created[0]!.coveredMessageCount).toBe(10 + 8);
    expect(change.transcript.messages.map((m) => m.seq)).toEqual([19, 20, 21, 22]);
    expect(change.attempts[0]).toMatchObject({ outcome: "applied", trigger: "tool", compactionId: change.created[0]!.id });
  });

  it("never leaves a tool result without its call at the cut", async () => {
    const { manager, settings } = setup({ keepRecentCount: 2 });
    const messages = [
      ...chat(3, 400),
      msg("assistant", "", { toolCalls: [{ id: "t", name: "ls", arguments: "{}" }] }),
      msg("tool", "listing", { toolCallId: "t" }),
      msg("assistant", "done"),
    ];
    const change = manager.applyProvided(transcriptOf(messages), { summary: "short", trigger: "manual" }, settings.snapshot());
    expect(change.created[0]!.toSeq).toBe(6);
    expect(change.transcript.messages.map((m) => m.seq)).toEqual([7, 8, 9]);
  });

  it("compress_context never takes the question being answered, whatever keepRecentCount says", async () => {
    for (const keepRecentCount of [0, 1]) {
      resetSeq();
      const { manager, settings } = setup({ keepRecentCount });
      const messages = [...chat(3, 400), msg("user", "summarize and then answer: what port?"), msg("assistant", "", { toolCalls: [{ id: "c", name: "compress_context", arguments: "{}" }] })];
      const change = manager.applyProvided(transcriptOf(messages), { summary: "short", trigger: "tool" }, settings.snapshot());
      expect(change.created[0]!.toSeq).toBe(6);
      expect(change.transcript.messages.map((m) => m.content)).toContain("summarize and then answer: what port?");
    }
  });

  it("rejects an empty summary and one that is not shorter", async () => {
    const { manager, settings } = setup();
    const transcript = transcriptOf(chat(6, 100));
    const empty = manager.applyProvided(transcript, { summary: "  ", trigger: "tool" }, settings.snapshot());
    expect(empty.created).toEqual([]);
    expect(empty.attempts[0]).toMatchObject({ outcome: "failed", reason: "provided summary is empty" });
    expect(empty.transcript).toBe(transcript);
    const long = manager.applyProvided(transcript, { summary: text(5000), trigger: "manual" }, settings.snapshot());
    expect(long.created).toEqual([]);
    expect(long.attempts[0]!.reason).toMatch(/not shorter/);
  });

  it("uses an explicit range, growing it to whole compactions", async () => {
    const { manager, settings } = setup();
    resetSeq(11);
    const transcript = transcriptOf(chat(10, 400), { compactions: [compaction("c", 1, 10)] });
    const change = manager.applyProvided(
      transcript,
      { summary: "edited by the user", trigger: "manual", fromSeq: 5, toSeq: 14, instructions: "keep names", strategy: "ai_summary" },
      settings.snapshot(),
    );
    expect(change.created[0]).toMatchObject({ fromSeq: 1, toSeq: 14, childIds: ["c"], level: 2, trigger: "manual", strategy: "ai_summary", instructions: "keep names", summary: "edited by the user" });
    expect(change.transcript.messages[0]!.seq).toBe(15);
  });

  it("exposes the compress_context tool definition", () => {
    expect(COMPRESS_CONTEXT_TOOL.type).toBe("function");
    expect(COMPRESS_CONTEXT_TOOL.function.name).toBe("compress_context");
    expect(COMPRESS_CONTEXT_TOOL.function.parameters.required).toEqual(["summary"]);
    expect(COMPRESS_CONTEXT_TOOL.function.parameters.properties.summary.type).toBe("string");
    expect(COMPRESS_CONTEXT_TOOL.function.description).toMatch(/summary of the conversation so far/);
  });
});

describe("compactNow", () => {
  it("compresses everything but the newest keepRecentCount regardless of the threshold", async () => {
    const { manager } = setup({ keepRecentCount: 2 });
    const transcript = transcriptOf(chat(4, 200));
    expect(manager.measure(transcript).ratio).toBeLessThan(0.5);
    const change = await manager.compactNow(transcript, { instructions: "mention the budget" });
    expect(change.created[0]).toMatchObject({ trigger: "manual", fromSeq: 1, toSeq: 6, instructions: "mention the budget", background: false });
    expect(change.transcript.messages.map((m) => m.seq)).toEqual([7, 8]);
  });

  it("with preview returns a proposal and applies nothing; applying the edited proposal works", async () => {
    const { manager, settings } = setup({ keepRecentCount: 2 });
    const transcript = transcriptOf(chat(4, 200));
    const preview = await manager.compactNow(transcript, { preview: true, strategy: "structured" });
    expect(preview.created).toEqual([]);
    expect(preview.transcript).toBe(transcript);
    expect(preview.proposal).toMatchObject({ fromSeq: 1, toSeq: 6, strategy: "structured" });
    expect(preview.proposal!.sections?.goals).toEqual(["finish the task"]);
    expect(preview.attempts[0]).toMatchObject({ outcome: "skipped" });
    const edited = `${preview.proposal!.summary}\n- also: user prefers tea`;
    const applied = manager.applyProvided(transcript, { summary: edited, trigger: "manual", fromSeq: preview.proposal!.fromSeq, toSeq: preview.proposal!.toSeq }, settings.snapshot());
    expect(applied.created[0]).toMatchObject({ summary: edited, strategy: "model_provided", trigger: "manual", level: 1 });
  });

  it("a proposal says what its summary would cost and what its range costs, as applying it compares them", async () => {
    const { manager, settings } = setup({ keepRecentCount: 2 });
    const transcript = transcriptOf(chat(4, 200));
    const { proposal } = await manager.compactNow(transcript, { preview: true });
    const inRange = transcript.messages.filter((m) => m.seq >= proposal!.fromSeq && m.seq <= proposal!.toSeq);
    expect(proposal!.replacedTokens).toBe(inRange.reduce((sum, m) => sum + m.tokens, 0));
    const range = { trigger: "manual" as const, fromSeq: proposal!.fromSeq, toSeq: proposal!.toSeq };
    const applied = manager.applyProvided(transcript, { ...range, summary: proposal!.summary }, settings.snapshot());
    expect(renderedCompactionTokens(applied.created[0]!, counter)).toBe(proposal!.proposedTokens);
    expect(proposal!.proposedTokens).toBeLessThan(proposal!.replacedTokens);
    // A summary as long as its range is refused, as the preview warns.
    const refused = manager.applyProvided(transcript, { ...range, summary: `${proposal!.summary}\n${"more words here ".repeat(proposal!.replacedTokens)}` }, settings.snapshot());
    expect(refused.created).toEqual([]);
    expect(refused.attempts[0]!.reason).toMatch(/is not shorter than the [\d,]+ tokens it replaces/);
  });

  it("a failed preview reports the failure and no proposal", async () => {
    const { manager, summarizer } = setup({ keepRecentCount: 2 });
    summarizer.behaviour = "empty";
    const preview = await manager.compactNow(transcriptOf(chat(4, 200)), { preview: true });
    expect(preview.proposal).toBeUndefined();
    expect(preview.attempts[0]).toMatchObject({ outcome: "failed", reason: "summary model returned empty output" });
  });
});

describe("compress_context arguments", () => {
  it("takes the summary of a call of the tool's shape and refuses anything else", () => {
    expect(providedSummaryOf('{"summary":"We planned the trip."}')).toBe("We planned the trip.");
    // An empty summary is the tool's shape; applyProvided records it as a failed attempt.
    expect(providedSummaryOf('{"summary":""}')).toBe("");
    expect(providedSummaryOf("{ nope")).toBeNull();
    expect(providedSummaryOf("")).toBeNull();
    expect(providedSummaryOf('{"summary":42}')).toBeNull();
    expect(providedSummaryOf('["We planned the trip."]')).toBeNull();
  });
});
