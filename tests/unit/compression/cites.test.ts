// The engine checks every summary's cites against the range its record covers, and
// the cites it writes itself name the exact source.
import { beforeEach, describe, expect, it } from "vitest";
import { citedNumbers } from "@/lib/compression/citations";
import { deriveTitle, takeTitle } from "@/lib/compression/title";
import { chat, compaction, msg, resetSeq, setup, text, transcriptOf } from "./fakes";

beforeEach(() => resetSeq());

const countMode = { triggerMode: "count" as const, countThreshold: 10, countWindow: 8, countKeepRecent: 2, countSummaryMaxChars: 100_000 };

describe("cites of a summary", () => {
  it("a model's cites outside the summarized range are removed, ranges reaching out cut back; the prose stays", async () => {
    const { manager, summarizer } = setup({ ...countMode, carryDetails: false }, 1_000_000);
    summarizer.respond = () => "We deploy to Frankfurt (#1). The key moved (#3, #40). Budget settled (#2–#90). Invented (#999).";
    const change = await manager.process(transcriptOf(chat(6, 2000)));
    const record = change.created[0]!;
    expect(record.summary).toBe("We deploy to Frankfurt (#1). The key moved (#3). Budget settled (#2–#" + record.toSeq + "). Invented.");
  });

  it("a merge keeps its children's cites inside its range and loses the rest", async () => {
    const { manager, summarizer } = setup({ summaryMaxTokens: 60, maxSummaryTokensPerLevel: 60, keepRecentCount: 2 }, 1_000_000);
    summarizer.respond = (request) =>
      (request.messages[1]?.content ?? "").startsWith("Summaries to merge") ? "Port 4021 (#5). Owner Dana (#25). Later (#41). Out (#200)." : undefined;
    resetSeq(100);
    const levelTwo = [0, 1, 2].map((i) => compaction(`m${i}`, i * 10 + 1, i * 10 + 10, { level: 2, summary: `level two ${i} ${text(120)}` }));
    const change = await manager.compactNow(transcriptOf([msg("user", text(400), { seq: 40 }), msg("assistant", text(400), { seq: 41 }), msg("user", "q", { seq: 42 })], { compactions: levelTwo }));
    const merged = change.created.find((c) => c.level === 3)!;
    expect(merged.fromSeq).toBe(1);
    expect(citedNumbers(merged.summary).filter((seq) => seq < merged.fromSeq || seq > merged.toSeq)).toEqual([]);
    expect(merged.summary).toContain("Port 4021 (#5).");
    expect(merged.summary).toContain("Owner Dana (#25).");
    expect(merged.summary).not.toContain("#200");
  });

  it("compress_context gets the same check", () => {
    const { manager, settings } = setup({ keepRecentCount: 4 });
    resetSeq(11);
    const change = manager.applyProvided(transcriptOf(chat(6, 400)), { summary: "We planned the trip (#11, #12, #500).", trigger: "tool" }, settings.snapshot());
    expect(change.created[0]!.summary).toBe("We planned the trip (#11–#12).");
  });
});

describe("cites the engine writes", () => {
  it("simple_extract cites each line's message and each fact's message, also after the bound shortened it", async () => {
    const { manager } = setup({ ...countMode, strategy: "simple_extract" }, 1_000_000);
    const messages = chat(6, 200);
    messages[3] = { ...messages[3]!, content: `${messages[3]!.content}\nFACT port=4021` };
    const summary = (await manager.process(transcriptOf(messages))).created[0]!.summary;
    expect(summary.split("\n")[1]).toMatch(/^\(#1\) user: /);
    expect(summary).toContain("\nFACT port=4021 (#4)");
  });
});

describe("cites are not titles", () => {
  it("a title the model wrote or one derived from the text leaves its cite out", () => {
    expect(takeTitle("Title: Project Falcon-13 uses port 4091 in production (#261)\nx").title).toBe("Project Falcon-13 uses port 4091 in production");
    expect(deriveTitle("Project Falcon uses port 4091 (#261).\nMore.")).toBe("Project Falcon uses port 4091");
  });
});
