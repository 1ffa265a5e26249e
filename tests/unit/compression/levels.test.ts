import { beforeEach, describe, expect, it } from "vitest";
import { PROMPT_TAGS } from "@/lib/compression/prompts";
import type { CompactionRecord, Transcript } from "@/lib/compression/types";
import { extractFacts } from "@/lib/compression/facts";
import { msg, resetSeq, setup, text, transcriptOf } from "./fakes";

beforeEach(() => resetSeq());

const patch = {
  triggerMode: "count" as const,
  countThreshold: 6,
  countWindow: 4,
  countKeepRecent: 2,
  countSummaryMaxChars: 100_000,
  maxSummaryTokensPerLevel: 30,
};

/** Feeds two exchanges at a time, each batch carrying one fact, and applies every change. */
async function grow(strategy: "ai_summary" | "simple_extract", rounds: number) {
  const ctx = setup({ ...patch, strategy, extractFieldMaxChars: 30 }, 1_000_000);
  let transcript: Transcript = transcriptOf([]);
  const all = new Map<string, CompactionRecord>();
  for (let round = 0; round < rounds; round++) {
    const added = [
      msg("user", `batch ${round} FACT k${round}=v${round} ${text(300)}`),
      msg("assistant", `ok ${text(300)}`),
      msg("user", `more ${text(300)}`),
      msg("assistant", `fine ${text(300)}`),
    ];
    transcript = { ...transcript, messages: [...transcript.messages, ...added], totalMessageCount: transcript.totalMessageCount + 4 };
    const change = await ctx.manager.process(transcript);
    for (const record of change.created) all.set(record.id, record);
    transcript = change.transcript;
  }
  return { ...ctx, transcript, all };
}

describe("multi-level compression (REQ-3.7, 003 §9.2)", () => {
  it("merges summaries of a level that outgrow their budget, up to level 3, keeping every fact", async () => {
    const { manager, transcript, all, summarizer, settings } = await grow("ai_summary", 9);
    const levels = [...all.values()].map((c) => c.level);
    expect(Math.max(...levels)).toBeGreaterThanOrEqual(3);
    const top = [...all.values()].find((c) => c.level === 3)!;
    const children = top.childIds.map((id) => all.get(id)!);
    expect(children.every((c) => c.level === 2)).toBe(true);
    const grandchildren = children.flatMap((c) => c.childIds.map((id) => all.get(id)!));
    expect(grandchildren.every((c) => c.level === 1)).toBe(true);
    expect(top.fromSeq).toBe(children[0]!.fromSeq);
    expect(top.toSeq).toBe(children.at(-1)!.toSeq);
    expect(top.coveredMessageCount).toBe(grandchildren.reduce((s, c) => s + c.coveredMessageCount, 0));
    expect(top.coveredTokens).toBe(grandchildren.reduce((s, c) => s + c.coveredTokens, 0));
    // Every level stays within budget after each call, and nothing active overlaps.
    for (const level of [1, 2, 3, 4]) {
      const used = transcript.compactions.filter((c) => c.level === level).reduce((s, c) => s + c.summaryTokens, 0);
      expect(used).toBeLessThanOrEqual(30 + 30);
    }
    const sorted = transcript.compactions;
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.fromSeq).toBeGreaterThan(sorted[i - 1]!.toSeq);
    // Merge prompts carry the summary tag and the children as rendered.
    const mergeCall = summarizer.calls.find((c) => (c.messages[1]?.content ?? "").startsWith("Summaries to merge"))!;
    expect((mergeCall.messages[0]!.content ?? "").split("\n")[0]).toBe(PROMPT_TAGS.summary);
    expect(mergeCall.messages[1]!.content).toContain("[Summary of messages 1–");
    // All facts of compressed messages still reach the chat model, in order.
    const request = manager.buildRequest(transcript, await settings.read());
    const facts = extractFacts(request.messages.map((m) => m.content ?? "").join("\n"));
    const compressedRounds = Math.floor((transcript.compactions.at(-1)!.toSeq) / 4);
    for (let round = 0; round < compressedRounds; round++) expect(facts).toContain(`FACT k${round}=v${round}`);
    expect(facts).toEqual([...facts].sort((a, b) => Number(a.split("=")[0]!.slice(6)) - Number(b.split("=")[0]!.slice(6))));
  });

  it("simple_extract merges deterministically without a model", async () => {
    const { all, summarizer, transcript } = await grow("simple_extract", 6);
    expect(summarizer.calls).toHaveLength(0);
    const merged = [...all.values()].filter((c) => c.level >= 2);
    expect(merged.length).toBeGreaterThan(0);
    expect(merged[0]!.summary).toMatch(/^Messages \d+–\d+: /);
    expect(merged[0]!.summary).toContain("FACT k0=v0");
    expect(transcript.compactions.every((c) => c.strategy === "simple_extract")).toBe(true);
  });

  it("a failed merge keeps the level-1 compaction and records the failure", async () => {
    const ctx = setup(patch, 1_000_000);
    ctx.summarizer.respond = (request) =>
      (request.messages[1]?.content ?? "").startsWith("Summaries to merge") ? new Error("merge model down") : undefined;
    let transcript = transcriptOf([]);
    for (let round = 0; round < 3; round++) {
      const added = [msg("user", `FACT r${round}=x ${text(300)}`), msg("assistant", text(300)), msg("user", text(300)), msg("assistant", text(300))];
      transcript = (await ctx.manager.process({ ...transcript, messages: [...transcript.messages, ...added] })).transcript;
    }
    const last = await ctx.manager.process({ ...transcript, messages: [...transcript.messages, msg("user", text(300)), msg("assistant", text(300)), msg("user", text(300)), msg("assistant", text(300))] });
    expect(last.created.map((c) => c.level)).toEqual([1]);
    expect(last.attempts.map((a) => a.outcome)).toEqual(["applied", "failed"]);
    expect(last.attempts[1]!.reason).toBe("summary model call failed: merge model down");
  });
});
