// A summary request that reuses the chat request's prefix, checked against the outside
// model (tests/support/outside-model): it must recognise the request as a summary, read
// exactly the named material from it, and find the chat request's prefix in it.
import { describe, expect, it } from "vitest";
import { AutoCompressionManager } from "@/lib/compression/manager";
import { MIN_SHARED_WINDOW } from "@/lib/compression/shared-prefix";
import type { CompressionSettings } from "@/lib/compression/settings";
import type { RequestTool, Transcript } from "@/lib/compression/types";
import * as outside from "../../support/outside-model/behaviour";
import { OutsideSummarizer } from "../../support/simulation";
import { chat, compaction, counter, MemoryLogger, resetSeq, setup, TEST_SETTINGS, transcriptOf } from "../compression/fakes";

const TOOLS: RequestTool[] = [
  { type: "function", function: { name: "current_time", description: "The current time.", parameters: { type: "object", properties: {} } } },
  { type: "function", function: { name: "compress_context", description: "Summarize older messages.", parameters: { type: "object", properties: { summary: { type: "string" } } } } },
];
/** The chat model writes its own summaries: no summary model of its own. */
const SAME_MODEL: CompressionSettings = { ...TEST_SETTINGS, summaryModel: "" };

function engine(window: number) {
  const summarizer = new OutsideSummarizer({ mode: "extractive" }, 1);
  let id = 0;
  const manager = new AutoCompressionManager({
    summarizer,
    tokens: counter,
    models: { contextWindow: () => window },
    logger: new MemoryLogger(),
    newId: () => `c${++id}`,
  });
  return { manager, summarizer };
}

/** Eight exchanges whose sentences the extractive summarizer keeps (they name things and numbers). */
function conversation(): Transcript {
  resetSeq();
  const messages = chat(8, 300).map((message) => ({ ...message, content: `${message.content} Service Orion-${message.seq} listens on port ${4000 + message.seq}.` }));
  return transcriptOf(messages, { tools: TOOLS, toolTokens: 120 });
}

describe("a summary request with the summary model equal to the chat model", () => {
  it("is the chat request the last reply answered (same tools in the same order, same system prompt and messages) followed by one instruction naming the material", async () => {
    const { manager, summarizer } = engine(8000);
    const transcript = conversation();
    expect(transcript.messages.at(-1)!.role).toBe("assistant");
    // The request that reply answered: the reply itself is no part of any cached prefix yet.
    const chatRequest = manager.buildRequest({ ...transcript, messages: transcript.messages.slice(0, -1) }, SAME_MODEL).messages;
    const change = await manager.compactNow(transcript, SAME_MODEL);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["applied"]);
    const record = change.created[0]!;
    const request = summarizer.requests[0]!;

    expect(request.tools).toEqual(TOOLS);
    expect(request.messages.slice(0, -1)).toEqual(chatRequest);
    expect(outside.classify(request)).toBe("summary");
    // The outside model reads the material by counting back from the instruction: it must be the range, and only it.
    const material = outside.materialOf(request.messages);
    const covered = transcript.messages.filter((m) => m.seq >= record.fromSeq && m.seq <= record.toSeq);
    const after = transcript.messages.filter((m) => m.seq > record.toSeq);
    expect(covered.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(material).toBe(covered.map((m) => m.content).join("\n"));
    // What the outside model kept of the range is what is stored: a port of the range, none of the messages kept after it.
    expect(record.kind === "summary" && record.summary).toContain(`port ${4000 + covered[0]!.seq}`);
    for (const message of after) expect(record.summary).not.toContain(`port ${4000 + message.seq}.`);
    // A provider serves all of the chat request from its cache.
    const cached = outside.cachedTokens({ messages: chatRequest as unknown as outside.Message[], tools: TOOLS }, request);
    expect(cached / outside.promptTokens(request)).toBeGreaterThanOrEqual(0.7);
  });

  it("before a model call (the user's message last), is the chat request about to be sent followed by the instruction", async () => {
    const { manager, summarizer } = engine(8000);
    const whole = conversation();
    const transcript = { ...whole, messages: whole.messages.slice(0, -1) };
    expect(transcript.messages.at(-1)!.role).toBe("user");
    const chatRequest = manager.buildRequest(transcript, SAME_MODEL).messages;
    const change = await manager.compactNow(transcript, SAME_MODEL);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["applied"]);
    expect(summarizer.requests[0]!.messages.slice(0, -1)).toEqual(chatRequest);
  });

  it("still reuses the prefix when the material holds a reply stopped before its answer (no text, not sent)", async () => {
    const { manager, summarizer } = engine(8000);
    const whole = conversation();
    // The second reply was stopped while its model thought: stored without text.
    const transcript = { ...whole, messages: whole.messages.map((m) => (m.seq === whole.messages[3]!.seq ? { ...m, content: "" } : m)).slice(0, -1) };
    expect(transcript.messages[3]).toMatchObject({ role: "assistant", content: "" });
    const chatRequest = manager.buildRequest(transcript, SAME_MODEL).messages;
    const change = await manager.compactNow(transcript, SAME_MODEL);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["applied"]);
    expect(change.created[0]!.fromSeq).toBeLessThanOrEqual(transcript.messages[3]!.seq);
    expect(summarizer.requests[0]!.messages.slice(0, -1)).toEqual(chatRequest);
  });

  it("falls back to the compact framing when the shared request would not fit the window", async () => {
    // The same conversation, in a window it nearly fills: the whole chat request plus the instruction and the reply would not fit.
    const transcript = conversation();
    const tight = engine(2200);
    const request = tight.manager.buildRequest(transcript, SAME_MODEL);
    expect(request.breakdown.ratio).toBeGreaterThan(0.7);
    expect(request.breakdown.totalTokens).toBeLessThanOrEqual(tight.manager.budget(transcript, SAME_MODEL).hardLimit);
    const change = await tight.manager.compactNow(transcript, SAME_MODEL);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["applied"]);
    const compact = tight.summarizer.requests[0]!;
    expect(compact.tools).toBeUndefined();
    expect(compact.messages).toHaveLength(2);
    expect(outside.textOf(compact.messages[0]!.content)).toMatch(/^You compress the earlier part of a long conversation/);
    expect(outside.classify(compact)).toBe("summary");
  });

  it(`uses the compact framing under a ${MIN_SHARED_WINDOW.toLocaleString("en-US")}-token window, where the same request would fit`, async () => {
    const framing = async (window: number) => {
      const { manager, summarizer } = engine(window);
      await manager.compactNow(conversation(), SAME_MODEL);
      return summarizer.requests[0]!.tools === undefined ? "compact" : "shared";
    };
    expect(await framing(MIN_SHARED_WINDOW)).toBe("shared");
    expect(await framing(MIN_SHARED_WINDOW - 1)).toBe("compact");
  });

  it("uses the compact framing when a summary model of its own is set (its cache is not the chat model's)", async () => {
    const { manager, summarizer } = engine(8000);
    await manager.compactNow(conversation(), { ...SAME_MODEL, summaryModel: "outside-large" });
    const request = summarizer.requests[0]!;
    expect(request.tools).toBeUndefined();
    expect(request.messages).toHaveLength(2);
  });

  it("asks once more in the compact framing when the model answers the shared request with a tool call and no text", async () => {
    const { manager, summarizer } = setup({ summaryModel: "" }, 8000);
    // Offered the chat's tools, this model calls one instead of writing (the client hands the engine no text and the finish reason).
    summarizer.finishReason = "tool_calls";
    summarizer.respond = (request) => (request.tools?.length ? "" : undefined);
    const change = await manager.compactNow(conversation());
    expect(summarizer.calls.map((call) => call.tools?.length ?? 0)).toEqual([TOOLS.length, 0]);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["applied"]);
  });

  it("stores what the model wrote about the range, not what it copied from the summaries the prefix shows", async () => {
    const { manager, summarizer } = setup({ summaryModel: "" }, 8000);
    resetSeq(11);
    const older = [
      compaction("old", 1, 4, { summary: "Service Vega runs on port 9000.", outOfView: "[#1–#4, not shown] Vega\nService Vega runs on port 9000." }),
      compaction("recent", 5, 10, { summary: "Team Lyra owns the deploy pipeline." }),
    ];
    const transcript = transcriptOf(chat(8, 300), { tools: TOOLS, toolTokens: 120, compactions: older });
    summarizer.respond = (request) =>
      request.tools?.length ? "Service Vega runs on port 9000.\nTeam Lyra owns the deploy pipeline.\nThe user asked questions and got answers." : undefined;
    const change = await manager.compactNow(transcript);
    expect(summarizer.calls[0]!.tools).toEqual(TOOLS);
    const record = change.created.at(-1)!;
    expect(record.kind === "summary" && record.summary).toContain("The user asked questions and got answers.");
    expect(record.summary).not.toContain("Vega");
    expect(record.summary).not.toContain("Lyra");
  });

  it("records an empty answer to the shared request as a failure, like any empty summary (no second call)", async () => {
    const { manager, summarizer } = setup({ summaryModel: "" }, 8000);
    summarizer.behaviour = "empty";
    const change = await manager.compactNow(conversation());
    expect(summarizer.calls).toHaveLength(1);
    expect(change.created).toEqual([]);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["failed"]);
  });
});
