import { beforeEach, describe, expect, it } from "vitest";
import { cutMarker } from "@/lib/compression/condense";
import { DETAILS_LABEL } from "@/lib/compression/details";
import { chat, compaction, counter, msg, resetSeq, setup, text, transcriptOf , summaryRecord } from "./fakes";

beforeEach(() => resetSeq());

const countMode = { triggerMode: "count" as const, countThreshold: 10, countWindow: 8, countKeepRecent: 2, countSummaryMaxChars: 100_000 };
/** Sentences a summary could keep: each distinct, so a cut shows. */
const sentences = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `Sentence ${from + i} says the value is ${1000 + from + i}.`).join("\n");

describe("summaries stay within their bound whatever the model does", () => {
  it("a model that ignores max_tokens is shortened to the bound, visibly", async () => {
    const { manager, summarizer } = setup({ ...countMode, summaryMaxTokens: 200 }, 1_000_000);
    summarizer.respond = () => sentences(300);
    const change = await manager.process(transcriptOf(chat(6, 2000)));
    const record = change.created[0]!;
    expect(counter.count(record.summary)).toBeLessThanOrEqual(200);
    expect(record.summary).toMatch(/\[… shortened to fit 200 tokens\]/);
    expect(change.attempts[0]!.reason).toMatch(/longer than 200 tokens and was shortened/);
    expect(summarizer.calls[0]!.maxTokens).toBe(200);
  });

  it("a reply cut at max_tokens (finish_reason length) loses its unfinished sentence and says so", async () => {
    const { manager, summarizer } = setup(countMode, 1_000_000);
    summarizer.finishReason = "length";
    summarizer.respond = () => "The user set up the database. The port was changed to 54";
    const change = await manager.process(transcriptOf(chat(6, 400)));
    const record = change.created[0]!;
    expect(record.summary).toBe(`The user set up the database.\n${cutMarker}`);
    expect(change.attempts[0]!.reason).toMatch(/stopped at its length limit/);
  });

  it("simple_extract (no model) is bounded too", async () => {
    const { manager } = setup({ ...countMode, strategy: "simple_extract", summaryMaxTokens: 100, extractFieldMaxChars: 1000 }, 1_000_000);
    const change = await manager.process(transcriptOf(chat(6, 1200)));
    expect(counter.count(change.created[0]!.summary)).toBeLessThanOrEqual(100);
  });

  it("a structured summary over the bound is shortened as text (its sections no longer match, so they go)", async () => {
    const { manager, summarizer } = setup({ ...countMode, strategy: "structured", summaryMaxTokens: 120 }, 1_000_000);
    summarizer.respond = () => JSON.stringify({ goals: sentences(40).split("\n"), decisions: [], completed: [], openItems: [], facts: [] });
    const change = await manager.process(transcriptOf(chat(6, 1200)));
    const record = change.created[0]!;
    expect(counter.count(record.summary)).toBeLessThanOrEqual(120);
    expect(summaryRecord(record).sections).toBeUndefined();
  });

  it("the count trigger's character cap applies to every strategy", async () => {
    for (const strategy of ["ai_summary", "structured"] as const) {
      resetSeq();
      const { manager, summarizer } = setup({ ...countMode, strategy, countSummaryMaxChars: 300 }, 1_000_000);
      summarizer.respond = (request) =>
        request.json ? JSON.stringify({ goals: sentences(30).split("\n"), decisions: [], completed: [], openItems: [], facts: [] }) : sentences(30);
      const change = await manager.process(transcriptOf(chat(6, 1200)));
      expect(change.created[0]!.summary.length, strategy).toBeLessThanOrEqual(300);
    }
  });

  it("merged summaries are bounded like the rest", async () => {
    const { manager, summarizer } = setup({ summaryMaxTokens: 60, maxSummaryTokensPerLevel: 60, keepRecentCount: 2 }, 1_000_000);
    summarizer.respond = (request) => ((request.messages[1]?.content ?? "").startsWith("Summaries to merge") ? sentences(100) : undefined);
    resetSeq(100);
    const levelTwo = [0, 1, 2].map((i) => compaction(`m${i}`, i * 10 + 1, i * 10 + 10, { level: 2, summary: `level two ${i} ${text(120)}` }));
    const change = await manager.compactNow(transcriptOf([msg("user", text(400), { seq: 40 }), msg("assistant", text(400), { seq: 41 }), msg("user", "q", { seq: 42 })], { compactions: levelTwo }));
    const merged = change.created.find((c) => c.level === 3)!;
    expect(merged).toBeDefined();
    expect(counter.count(merged.summary)).toBeLessThanOrEqual(60);
  });
});

describe("specifics a summary left out are carried over verbatim (carryDetails)", () => {
  const withFacts = () => [
    msg("user", `We deploy to Frankfurt. The deploy key lives in vault slot 7413. ${text(300)}`),
    msg("assistant", `Understood. ${text(300)}`),
    ...Array.from({ length: 8 }, (_, i) => msg(i % 2 ? "assistant" : "user", `and so on ${text(300)}`)),
  ];

  it("appends the sentences whose numbers and names the summary dropped, within the bound, and asks the model for less", async () => {
    const { manager, summarizer } = setup({ ...countMode, carryDetails: true, summaryMaxTokens: 200 }, 1_000_000);
    summarizer.respond = () => "Summary: the user talked about deployment.";
    const change = await manager.process(transcriptOf(withFacts()));
    const summary = change.created[0]!.summary;
    expect(summary).toContain(DETAILS_LABEL);
    // Each carried sentence cites the message it was taken from.
    expect(summary).toContain("The deploy key lives in vault slot 7413 (#1).");
    expect(summary).toContain("We deploy to Frankfurt (#1).");
    expect(counter.count(summary)).toBeLessThanOrEqual(200);
    expect(summarizer.calls[0]!.maxTokens).toBe(160);
    expect(change.attempts[0]!.reason).toMatch(/with specifics the summary left out kept verbatim/);
  });

  it("adds nothing when the summary kept them, or when switched off", async () => {
    const kept = setup({ ...countMode, carryDetails: true }, 1_000_000);
    kept.summarizer.respond = () => "We deploy to Frankfurt; the deploy key lives in vault slot 7413.";
    expect((await kept.manager.process(transcriptOf(withFacts()))).created[0]!.summary).not.toContain(DETAILS_LABEL);
    resetSeq();
    const off = setup({ ...countMode, carryDetails: false }, 1_000_000);
    off.summarizer.respond = () => "The user talked about deployment.";
    expect((await off.manager.process(transcriptOf(withFacts()))).created[0]!.summary).toBe("The user talked about deployment.");
  });
});

describe("one deadline for a whole compression pass", () => {
  it("many digest calls that each fit their own timeout still fail the pass at its deadline", async () => {
    const { manager, summarizer } = setup({ ...countMode, strategy: "turn_digest", digestConcurrency: 1, summaryTimeoutMs: 1000 }, 1_000_000);
    summarizer.delayMs = 300; // each call alone is well within 1,000 ms; eight in a row are not
    const change = await manager.process(transcriptOf(chat(8, 300)));
    expect(change.created).toEqual([]);
    expect(change.attempts[0]).toMatchObject({ outcome: "failed" });
    expect(change.attempts[0]!.reason).toMatch(/ran past its 1,000 ms deadline/);
    expect(summarizer.calls.length).toBeLessThan(8);
  });
});
