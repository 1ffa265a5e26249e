import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SUMMARY_INSTRUCTIONS, DIGEST_INSTRUCTIONS, STRUCTURED_INSTRUCTIONS } from "@/lib/compression/prompts";

const firstLine = (text: string) => text.split("\n")[0];
import { parseSections } from "@/lib/compression/strategies";
import { splitIntoTurns } from "@/lib/compression/strategies/turn-digest";
import { chat, factsIn, msg, resetSeq, setup, text, transcriptOf , summaryRecord } from "./fakes";

beforeEach(() => resetSeq());

const countMode = { triggerMode: "count" as const, countThreshold: 10, countWindow: 8, countKeepRecent: 2, countSummaryMaxChars: 100_000 };

function withFacts() {
  const messages = chat(5, 600);
  messages[1] = { ...messages[1]!, content: `${messages[1]!.content}\nFACT db_port=5433\nsome more text` };
  messages[4] = { ...messages[4]!, content: `path /srv/app/config.yaml\n  FACT owner=Dana Scully` };
  return transcriptOf(messages);
}

describe("ai_summary", () => {
  it("opens with the summary instructions (no tag), uses the summary settings and keeps FACT lines in the compaction", async () => {
    const { manager, summarizer } = setup({ ...countMode, summaryModel: "mini-model", summaryTemperature: 0.3, summaryMaxTokens: 321, summaryTimeoutMs: 30_000 }, 1_000_000);
    const change = await manager.process(withFacts());
    const call = summarizer.calls[0]!;
    expect(call.messages[0]!.role).toBe("system");
    expect(firstLine(call.messages[0]!.content ?? "")).toBe(firstLine(DEFAULT_SUMMARY_INSTRUCTIONS));
    // Real prompts carry no marker for a test server to find.
    expect(call.messages.map((m) => m.content ?? "").join("\n")).not.toMatch(/\[strata:/);
    expect(call).toMatchObject({ model: "mini-model", temperature: 0.3, maxTokens: 321, timeoutMs: 30_000 });
    expect(call.signal).toBeInstanceOf(AbortSignal);
    const prompt = call.messages[0]!.content ?? "";
    for (const wanted of ["Task goals", "Important decisions", "Completed work", "Open items", "starts with the word FACT"]) expect(prompt).toContain(wanted);
    // 004-style transcript: role-labelled lines.
    expect(call.messages[1]!.content).toMatch(/\[user #1\]: question 0/);
    expect(call.messages[1]!.content).toMatch(/\[assistant #2\]: answer 0/);
    const record = change.created[0]!;
    expect(summaryRecord(record).summaryModel).toBe("mini-model");
    expect(record.summary).toContain("FACT db_port=5433");
    expect(record.summary).toContain("FACT owner=Dana Scully");
    const request = manager.buildRequest(change.transcript, await setup().settings.snapshot());
    // The summary follows the system prompt and the history notice.
    expect(request.messages[2]!.content).toContain("FACT db_port=5433");
    expect(request.messages[2]!.content).toMatch(/^\[Summary of messages 1–8 \(level 1\)\]/);
  });

  it("the prompts themselves never plant a fact", async () => {
    for (const strategy of ["ai_summary", "structured", "turn_digest"] as const) {
      const { manager, summarizer } = setup({ ...countMode, strategy }, 1_000_000);
      const change = await manager.process(transcriptOf(chat(5, 300)));
      expect(change.created[0]!.summary).not.toMatch(/FACT/);
      expect(factsIn(summarizer.calls.map((c) => c.messages.map((m) => m.content).join("\n")).join("\n"))).toEqual([]);
      resetSeq();
    }
  });

  it("uses the conversation's model when no summary model is set", async () => {
    const { manager, summarizer } = setup({ ...countMode, summaryModel: "" }, 1_000_000);
    await manager.process(withFacts());
    expect(summarizer.calls[0]!.model).toBe("chat-model");
  });

  it("restores FACT lines the model dropped", async () => {
    const { manager, summarizer } = setup(countMode, 1_000_000);
    summarizer.respond = () => "A short summary that forgot the facts.";
    const change = await manager.process(withFacts());
    expect(change.created[0]!.summary).toBe("A short summary that forgot the facts.\nFACT db_port=5433 (#2)\nFACT owner=Dana Scully (#5)");
  });

  it("with preserveFactLines off, stores the model's summary exactly as written", async () => {
    const { manager, summarizer } = setup({ ...countMode, preserveFactLines: false }, 1_000_000);
    summarizer.respond = () => "A short summary that forgot the facts.";
    const change = await manager.process(withFacts());
    expect(change.created[0]!.summary).toBe("A short summary that forgot the facts.");
  });

  it("a custom prompt replaces the default instructions and per-compaction instructions are appended", async () => {
    const { manager, summarizer } = setup({ customPrompt: "Summarize like a pirate." }, 1_000_000);
    const change = await manager.compactNow(withFacts(), { instructions: "Focus on the database." });
    const system = summarizer.calls[0]!.messages[0]!.content ?? "";
    expect(system.startsWith("Summarize like a pirate.\n")).toBe(true);
    expect(system).toContain("Summarize like a pirate.");
    expect(system).not.toContain("Important decisions");
    expect(system.indexOf("Focus on the database.")).toBeGreaterThan(system.indexOf("pirate"));
    expect(change.created[0]).toMatchObject({ trigger: "manual", instructions: "Focus on the database." });
  });
});

describe("simple_extract", () => {
  it("needs no model, cuts each message at extractFieldMaxChars and keeps facts verbatim", async () => {
    const { manager, summarizer } = setup({ ...countMode, strategy: "simple_extract", extractFieldMaxChars: 50 }, 1_000_000);
    const transcript = withFacts();
    transcript.messages[2] = msg("assistant", "calling", { seq: 3, toolCalls: [{ id: "t", name: "read_file", arguments: "{}" }] });
    transcript.messages[3] = msg("tool", "contents " + text(500), { seq: 4, toolCallId: "t", toolName: "read_file" });
    const change = await manager.process(transcript);
    expect(summarizer.calls).toHaveLength(0);
    const summary = change.created[0]!.summary;
    const lines = summary.split("\n");
    expect(lines[0]).toBe("Key points of messages 1–8:");
    expect(lines[1]).toMatch(/^\(#1\) user: question 0: .{1,50}\.\.\.$/);
    expect(lines[3]).toBe("(#3) assistant: calling → tool_call read_file");
    expect(lines[4]).toMatch(/^\(#4\) tool read_file: contents/);
    expect(summary).toContain("\nFACT db_port=5433");
    expect(summary).toContain("\nFACT owner=Dana Scully");
    expect(summaryRecord(change.created[0]).summaryModel).toBeUndefined();
    // Deterministic.
    const again = await setup({ ...countMode, strategy: "simple_extract", extractFieldMaxChars: 50 }, 1_000_000).manager.process(transcript);
    expect(again.created[0]!.summary).toBe(summary);
  });
});

describe("structured", () => {
  it("asks for JSON with the structured instructions, validates it and renders sections", async () => {
    const { manager, summarizer } = setup({ ...countMode, strategy: "structured" }, 1_000_000);
    const change = await manager.process(withFacts());
    const call = summarizer.calls[0]!;
    expect(firstLine(call.messages[0]!.content ?? "")).toBe(firstLine(STRUCTURED_INSTRUCTIONS));
    expect(call.json).toBe(true);
    const record = change.created[0]!;
    expect(summaryRecord(record).sections).toEqual({
      goals: ["finish the task"],
      decisions: ["use plan A"],
      completed: ["step 1"],
      openItems: ["step 2"],
      // The server reads "owner=Dana" (one word); the whole-line fact is restored after it.
      // Restored facts cite the message that said them.
      facts: ["FACT db_port=5433", "FACT owner=Dana", "FACT owner=Dana Scully (#5)"],
    });
    expect(record.summary).toBe(
      "Goals:\n- finish the task\n\nDecisions:\n- use plan A\n\nCompleted:\n- step 1\n\nOpen items:\n- step 2\n\nFacts:\nFACT db_port=5433\nFACT owner=Dana\nFACT owner=Dana Scully (#5)",
    );
  });

  it("accepts fenced JSON and rejects the wrong shape", () => {
    expect(parseSections('Here:\n```json\n{"goals":["a"],"facts":[]}\n```').goals).toEqual(["a"]);
    expect(() => parseSections('{"goals": "not a list"}')).toThrow(/invalid JSON: goals/);
    expect(() => parseSections("no json at all")).toThrow(/invalid JSON/);
  });
});

describe("turn_digest", () => {
  it("splits into turns, digests each under the concurrency limit, numbers the lines", async () => {
    const { manager, summarizer } = setup({ ...countMode, countWindow: 8, strategy: "turn_digest", digestConcurrency: 2 }, 1_000_000);
    summarizer.delayMs = 15;
    const change = await manager.process(withFacts());
    expect(summarizer.calls).toHaveLength(4); // 8 messages = 4 user turns
    expect(summarizer.firstLines().every((line) => line === firstLine(DIGEST_INSTRUCTIONS))).toBe(true);
    expect(summarizer.maxInFlight).toBe(2);
    const lines = change.created[0]!.summary.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "1. (#1–#2) user asked, assistant answered",
      "2. (#3–#4) user asked, assistant answered",
      "3. (#5–#6) user asked, assistant answered",
      "4. (#7–#8) user asked, assistant answered",
    ]);
    expect(lines.slice(4)).toEqual(["FACT db_port=5433 (#2)", "FACT owner=Dana Scully (#5)"]);
  });

  it("one failed digest fails the attempt and changes nothing", async () => {
    const { manager, summarizer } = setup({ ...countMode, strategy: "turn_digest", digestConcurrency: 1 }, 1_000_000);
    summarizer.respond = (_request, index) => (index === 2 ? new Error("rate limited") : undefined);
    const transcript = withFacts();
    const change = await manager.process(transcript);
    expect(change.created).toEqual([]);
    expect(change.transcript).toEqual(transcript);
    expect(change.attempts[0]).toMatchObject({ outcome: "failed", strategy: "turn_digest" });
    expect(change.attempts[0]!.reason).toBe("turn digest failed: summary model call failed: rate limited");
    expect(summarizer.calls).toHaveLength(3); // the failure stopped the remaining turn
  });

  it("a turn is a user message and everything up to the next one", () => {
    const turns = splitIntoTurns([msg("assistant", "hi"), msg("user", "a"), msg("assistant", "b"), msg("tool", "c"), msg("user", "d")]);
    expect(turns.map((t) => t.map((m) => m.seq))).toEqual([[1], [2, 3, 4], [5]]);
  });
});
