import { beforeEach, describe, expect, it } from "vitest";
import { contextBudget, FAN_OUT, MAX_SUMMARY_BLOCKS } from "@/lib/compression/budget";
import { planMerge, planSetAsideAhead, type LevelPlan } from "@/lib/compression/levels";
import { DEFAULT_SETTINGS } from "@/lib/compression/settings";
import { extractFacts } from "@/lib/compression/facts";
import { DEFAULT_SUMMARY_INSTRUCTIONS } from "@/lib/compression/prompts";
import type { CompactionRecord, Transcript } from "@/lib/compression/types";
import { compaction, counter, msg, resetSeq, setup, text, transcriptOf } from "./fakes";

beforeEach(() => resetSeq());

const countMode = {
  triggerMode: "count" as const,
  countThreshold: 6,
  countWindow: 4,
  countKeepRecent: 2,
  countSummaryMaxChars: 100_000,
};

/** Feeds two exchanges at a time, each batch carrying one fact, and applies every change. */
async function grow(rounds: number, patch: Parameters<typeof setup>[0] = {}) {
  const ctx = setup({ ...countMode, ...patch }, 1_000_000);
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

const isMerge = (content: string | null | undefined) => (content ?? "").startsWith("Summaries to merge");
const isFold = (content: string | null | undefined) => (content ?? "").startsWith("Earlier summaries");

describe("multi-level compression", () => {
  it("folds the level-1 summaries into the next summary when level 1 is full: one call, one level up", async () => {
    const { all, summarizer, transcript } = await grow(FAN_OUT + 2);
    const folded = [...all.values()].find((c) => c.level === 2)!;
    expect(folded).toBeDefined();
    const children = folded.childIds.map((id) => all.get(id)!);
    // The new messages are the fold's last child: FAN_OUT − 1 summaries and them.
    expect(children).toHaveLength(FAN_OUT - 1);
    expect(children.every((c) => c.level === 1)).toBe(true);
    expect(folded.fromSeq).toBe(children[0]!.fromSeq);
    // The fold covered its children and the new messages after them.
    expect(folded.toSeq).toBeGreaterThan(children.at(-1)!.toSeq);
    expect(folded.coveredMessageCount).toBe(folded.toSeq - folded.fromSeq + 1);
    // Exactly one summary call per compaction: no separate merge call.
    expect(summarizer.calls).toHaveLength(all.size);
    expect(summarizer.calls.some((call) => isMerge(call.messages[1]?.content))).toBe(false);
    const foldCall = summarizer.calls.find((call) => isFold(call.messages[1]?.content))!;
    expect((foldCall.messages[0]!.content ?? "").split("\n")[0]).toBe(DEFAULT_SUMMARY_INSTRUCTIONS.split("\n")[0]);
    for (const child of children) expect(foldCall.messages[1]!.content).toContain(`[Summary of messages ${child.fromSeq}–${child.toSeq} (level 1)]`);
    // Nothing active overlaps.
    const sorted = transcript.compactions;
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.fromSeq).toBeGreaterThan(sorted[i - 1]!.toSeq);
  });

  it("merges a level that outgrows its budget one level up, and every fact still reaches the model", async () => {
    const { all, manager, summarizer, transcript } = await grow(30, { summaryMaxTokens: 40, maxSummaryTokensPerLevel: 60 });
    const levels = new Set([...all.values()].map((c) => c.level));
    expect(Math.max(...levels)).toBeGreaterThanOrEqual(3);
    expect(summarizer.calls.some((call) => isMerge(call.messages[1]?.content))).toBe(true);
    const budget = manager.budget(transcript);
    for (const level of levels) {
      const ofLevel = transcript.compactions.filter((c) => c.level === level);
      expect(ofLevel.length).toBeLessThanOrEqual(FAN_OUT);
    }
    expect(budget.levelBudgetTokens).toBe(60);
    const request = manager.buildRequest(transcript);
    const facts = extractFacts(request.messages.map((m) => m.content ?? "").join("\n"));
    const compressedRounds = Math.floor(transcript.compactions.at(-1)!.toSeq / 4);
    for (let round = 0; round < compressedRounds; round++) expect(facts).toContain(`FACT k${round}=v${round}`);
  });

  it("a failed merge keeps what it would have merged and records the failure", async () => {
    const ctx = setup({ summaryMaxTokens: 60, maxSummaryTokensPerLevel: 60, keepRecentCount: 2 }, 1_000_000);
    ctx.summarizer.respond = (request) => (isMerge(request.messages[1]?.content) ? new Error("merge model down") : undefined);
    resetSeq(100);
    const levelTwo = [0, 1, 2].map((i) => compaction(`m${i}`, i * 10 + 1, i * 10 + 10, { level: 2, summary: `level two ${i} ${text(120)}` }));
    const transcript = transcriptOf([msg("user", "latest question")], { compactions: levelTwo });
    const change = await ctx.manager.compactNow({ ...transcript, messages: [msg("user", text(400), { seq: 40 }), msg("assistant", text(400), { seq: 41 }), ...transcript.messages] });
    expect(change.created.every((c) => c.level === 1)).toBe(true);
    expect(change.attempts.map((a) => a.outcome)).toEqual(["applied", "failed"]);
    expect(change.attempts[1]!.reason).toBe("summary model call failed: merge model down");
    expect(change.transcript.compactions.filter((c) => c.level === 2).map((c) => c.id)).toEqual(["m0", "m1", "m2"]);
  });

  it("over the hard limit with nothing left to summarize, rewrites the summaries shorter before cutting anything", async () => {
    const { manager, summarizer } = setup({ keepRecentCount: 2 }, 4000);
    summarizer.respond = (request) => (isMerge(request.messages[1]?.content) ? "Summary: shorter. FACT keep=1" : undefined);
    const big = [0, 1].map((i) => compaction(`s${i}`, i * 10 + 1, i * 10 + 10, { summary: `summary ${i} FACT keep=1 ${text(8000)}` }));
    resetSeq(21);
    const change = await manager.process(transcriptOf([msg("user", "what now?")], { compactions: big }));
    expect(change.created.map((c) => c.kind)).toEqual(["summary"]);
    expect(change.created[0]!.childIds).toEqual(["s0", "s1"]);
    expect(change.attempts[0]!.reason).toMatch(/over the hard limit with nothing left to summarize: 2 summaries rewritten to fit/);
    const request = manager.buildRequest(change.transcript);
    expect(request.messages.map((m) => m.content ?? "").join("\n")).toContain("FACT keep=1");
  });

  it("simple_extract merges deterministically without a model", async () => {
    const { all, summarizer, transcript } = await grow(12, { strategy: "simple_extract", extractFieldMaxChars: 30, summaryMaxTokens: 60, maxSummaryTokensPerLevel: 60 });
    expect(summarizer.calls).toHaveLength(0);
    const merged = [...all.values()].filter((c) => c.level >= 2);
    expect(merged.length).toBeGreaterThan(0);
    expect(merged[0]!.summary).toMatch(/^\(#\d+–#\d+\) /);
    expect(merged[0]!.summary).toContain("FACT k0=v0");
    expect(transcript.compactions.every((c) => c.strategy === "simple_extract")).toBe(true);
  });
});

describe("what a level of summaries costs", () => {
  const budget = contextBudget(3000, { ...DEFAULT_SETTINGS, keepRecentCount: 6, hardLimitReserve: 400, maxSummaryTokensPerLevel: 500 }, 0);
  /** Neighbouring summaries with nothing summarizable between them, each claiming `summaryTokens` 1. */
  const run = (levels: number[], chars: number) =>
    transcriptOf([msg("user", "now")], {
      compactions: levels.map((level, i) => compaction(`s${i}`, i * 4 + 1, i * 4 + 4, { level, summary: text(chars), summaryTokens: 1 })),
    });

  /** A merge plan (no summary leaves the view when a merge can do). A cap of 10 keeps the tree's height out of these checks. */
  const mergeOf = (plan: LevelPlan | null) => {
    if (plan?.kind !== "merge") throw new Error(`expected a merge, got ${JSON.stringify(plan)}`);
    return plan;
  };

  it("is what its summaries cost in the request (their rendering), not the summary tokens they were stored with", () => {
    // Three level-1 blocks (within the block count) whose renderings outgrow the level budget together.
    const chars = Math.ceil((budget.levelBudgetTokens / 2.5) * 4);
    const plan = mergeOf(planMerge(run([1, 1, 1], chars), budget, counter, 10));
    expect(plan).toMatchObject({ level: 2 });
    expect(plan.children.map((c) => c.id)).toEqual(["s0", "s1", "s2"]);
    expect(plan.reason).toMatch(/^level 1 summaries cost [\d,]+ tokens \(budget [\d,]+\)/);
    // The same three blocks, short: nothing to merge.
    expect(planMerge(run([1, 1, 1], 40), budget, counter, 10)).toBeNull();
  });

  it("the number of summary blocks in a request is bounded across levels, however cheap they are", () => {
    // No level holds more than its share of blocks, but together they are over the bound.
    const levels = [5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2].slice(0, MAX_SUMMARY_BLOCKS + 1);
    expect(levels.length).toBeGreaterThan(MAX_SUMMARY_BLOCKS);
    const plan = mergeOf(planMerge(run(levels, 20), budget, counter, 10));
    expect(plan.reason).toMatch(new RegExp(`^${levels.length} summary blocks \\(at most ${MAX_SUMMARY_BLOCKS}\\)`));
    expect(levels.length - plan.children.length + 1).toBeLessThanOrEqual(MAX_SUMMARY_BLOCKS);
    // A merge takes summaries of one level, and the lowest level first (it sits after the older ones).
    expect(new Set(plan.children.map((c) => c.level))).toEqual(new Set([2]));
    expect(planMerge(run(levels.slice(0, MAX_SUMMARY_BLOCKS), 20), budget, counter, 10)).toBeNull();
  });
});

describe("a summary a merge just wrote, that the next summary would push out of view", () => {
  // Summary budget 720, level budget 500, summaries bounded at 240 tokens (the next one counts as 120).
  const budget = contextBudget(3000, { ...DEFAULT_SETTINGS, keepRecentCount: 6, hardLimitReserve: 400, maxSummaryTokensPerLevel: 500 }, 0);
  const standIn = compaction("s0", 1, 40, { level: 3, outOfView: "[#1–#40, not shown] the start" });
  /** The stand-in, then `shown` in view, then messages from #81 on (the next summary starts there). */
  const state = (...shown: CompactionRecord[]) => {
    resetSeq(81);
    return transcriptOf([msg("user", `later ${text(200)}`), msg("assistant", `ok ${text(200)}`), msg("user", "now")], { compactions: [standIn, ...shown] });
  };

  it("leaves the view with the merge that wrote it, when the next summary would set exactly it aside", () => {
    expect(budget.summaryBudgetTokens).toBe(720);
    const merged = compaction("m", 41, 80, { level: 2, summary: text(2400), childIds: ["a", "b"] });
    const transcript = state(merged);
    // Within the budget now: nothing must leave yet.
    expect(planMerge(transcript, budget, counter, 10)).toBeNull();
    const plan = planSetAsideAhead(transcript, budget, counter, 10, new Set(["m"]));
    expect(plan).toMatchObject({ kind: "set_aside", compaction: { id: "m" } });
    expect(plan!.reason).toMatch(/^the next summary would make the summary of messages 41–80 \(level 2\) leave the model's view/);
    // A summary the model already saw in that place (not written by this pass) keeps it until it must go.
    expect(planSetAsideAhead(transcript, budget, counter, 10, new Set())).toBeNull();
  });

  it("counts the next summary with its label", () => {
    // A next summary as large as this pass's (240 tokens here) and its label make the
    // summaries outgrow 720 by a few tokens; without the label they would fit, and the
    // summary would leave one compaction later, changing the request twice from here.
    const merged = compaction("m", 41, 80, { level: 2, summary: text(1770), childIds: ["a", "b"] });
    expect(planSetAsideAhead(state(merged), budget, counter, 10, new Set(["m"]), 240)).toMatchObject({ kind: "set_aside", compaction: { id: "m" } });
    expect(planSetAsideAhead(state(merged), budget, counter, 10, new Set(["m"]), 200)).toBeNull();
  });

  it("stays while the next summary leaves room for it", () => {
    const merged = compaction("m", 41, 80, { level: 2, summary: text(1600), childIds: ["a", "b"] });
    expect(planSetAsideAhead(state(merged), budget, counter, 10, new Set(["m"]))).toBeNull();
  });

  it("stays when the next compaction would merge instead (its content stays in view)", () => {
    // The newest level-1 summary and the next one outgrow level 1: they merge, nothing is set aside first.
    const merged = compaction("m", 41, 60, { level: 2, summary: text(800), childIds: ["a", "b"] });
    const levelOne = compaction("k", 61, 80, { level: 1, summary: text(1500) });
    const transcript = state(merged, levelOne);
    expect(planMerge(transcript, budget, counter, 10)).toBeNull();
    expect(planSetAsideAhead(transcript, budget, counter, 10, new Set(["m"]))).toBeNull();
  });
});
