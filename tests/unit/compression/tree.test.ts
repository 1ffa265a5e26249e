// The summary tree (docs/design.md, "Levels: a tree of bounded height"): merges of one
// level, a height cap, summaries leaving the model's view as stand-ins, titles, and a
// request that changes only from the first block a compaction replaces.
import { beforeEach, describe, expect, it } from "vitest";
import { contextBudget, FAN_OUT } from "@/lib/compression/budget";
import { finalizeOutput } from "@/lib/compression/finalize";
import { levelCap, planMerge } from "@/lib/compression/levels";
import { standIns } from "@/lib/compression/out-of-view";
import { DEFAULT_SETTINGS } from "@/lib/compression/settings";
import { deriveTitle, MAX_TITLE_CHARS, takeTitle } from "@/lib/compression/title";
import type { CompactionRecord } from "@/lib/compression/types";
import type { Compaction } from "@/lib/db/generated/client";
import { toCompactionView } from "@/lib/db/mappers";
import { chat, compaction, counter, msg, resetSeq, setup, text, transcriptOf } from "./fakes";

beforeEach(() => resetSeq());

describe("titles", () => {
  it("takes the summarizer's title line out of the summary, however it is dressed", () => {
    expect(takeTitle("Title: Trip planning, budget set\nThe user plans a trip.")).toEqual({ text: "The user plans a trip.", title: "Trip planning, budget set" });
    expect(takeTitle("\n**Title:** Port numbers\nSummary: ports.")).toEqual({ text: "\nSummary: ports.", title: "Port numbers" });
    expect(takeTitle("## title: Deploy plan.\nx").title).toBe("Deploy plan");
    // No title line, or an empty one: the text is left as it was.
    expect(takeTitle("Summary: the plan.")).toEqual({ text: "Summary: the plan." });
    expect(takeTitle("Title:\nSummary: the plan.").title).toBeUndefined();
    // A title that is the request's own header names nothing: the line goes, a title is derived later.
    expect(takeTitle("Title: Conversation to summarize (messages 1–42)\nThe port is 4021.")).toEqual({ text: "The port is 4021." });
  });

  it("derives a distinct title when the summarizer ignored the request: a sentence with specifics, not a generic opening", () => {
    expect(deriveTitle("Summary of 12 earlier lines.\nProject Falcon-3 uses port 4021 in production.")).toBe("Project Falcon-3 uses port 4021 in production");
    expect(deriveTitle("Detailed summary:\nthe plan looks fine.\nIn conclusion, the conversation covered all of the above.")).toBe("the plan looks fine");
    expect(deriveTitle("1. (#3–#5) Asked for the Berlin office address")).toBe("Asked for the Berlin office address");
    const long = deriveTitle(`Alice ${text(200, "word")}`);
    expect(long.length).toBeLessThanOrEqual(MAX_TITLE_CHARS + 1);
    expect(long.endsWith("…")).toBe(true);
    expect(deriveTitle("")).toBe("Earlier conversation");
  });

  it("every finalized summary has a title: the given one, else a derived one; the title line never reaches the summary", () => {
    const bound = { maxTokens: 500, tokens: counter, preserveFacts: true };
    const given = finalizeOutput({ summary: "Title: Falcon ports\nSummary: Falcon uses port 4021." }, [], [], bound);
    expect(given).toMatchObject({ title: "Falcon ports", summary: "Falcon uses port 4021." });
    const ignored = finalizeOutput({ summary: "Summary of 9 earlier lines.\nBob moved the launch to May 3." }, [], [], bound);
    expect(ignored.title).toBe("Bob moved the launch to May 3");
    expect(ignored.summary).not.toMatch(/^Title:/m);
  });
});

describe("the tree's height", () => {
  it("is capped at ⌈log4(messages ÷ keepRecent)⌉ + 1, at least 2", () => {
    expect(levelCap(10, 10)).toBe(2);
    expect(levelCap(40, 10)).toBe(2);
    expect(levelCap(41, 10)).toBe(3);
    expect(levelCap(800, 10)).toBe(5);
    expect(levelCap(100_000, 10)).toBe(8);
  });

  const budget = contextBudget(8192, DEFAULT_SETTINGS, 0);
  const tree = (levels: number[], chars: number) =>
    transcriptOf([msg("user", "now", { seq: 900 })], {
      compactions: levels.map((level, i) => compaction(`s${i}`, i * 10 + 1, i * 10 + 10, { level, summary: text(chars) })),
    });

  it("a merge takes summaries of one level only, at most FAN_OUT of them, and stands one level above them", () => {
    const plan = planMerge(tree([3, 2, 1, 1, 1, 1, 1], 40), budget, counter, 5);
    expect(plan).toMatchObject({ kind: "merge", level: 2 });
    if (plan?.kind !== "merge") throw new Error("expected a merge");
    expect(plan.children.map((c) => c.id)).toEqual(["s2", "s3", "s4", "s5"]);
    expect(plan.children).toHaveLength(FAN_OUT);
  });

  it("never merges above the cap, nor the oldest summary into everything after it (the chain): the oldest leaves the view instead", () => {
    // Over the summary budget, no two neighbours of one level: no merge may climb.
    const chars = Math.ceil(budget.summaryBudgetTokens * 4 * 0.45);
    const plan = planMerge(tree([4, 3, 2, 1], chars), budget, counter, 5);
    expect(plan).toMatchObject({ kind: "set_aside", compaction: { id: "s0" } });
    // Two neighbours at the cap may not merge either.
    expect(planMerge(tree([5, 5, 1], chars), budget, counter, 5)).toMatchObject({ kind: "set_aside", compaction: { id: "s0" } });
    // Below the cap, they would.
    expect(planMerge(tree([4, 4, 1], chars), budget, counter, 5)).toMatchObject({ kind: "merge", level: 5 });
  });
});

describe("summaries out of the model's view", () => {
  const summaryOf = (i: number, extra: Partial<CompactionRecord> = {}) =>
    compaction(`s${i}`, i * 10 + 1, i * 10 + 10, {
      level: 3,
      title: `Part ${i}`,
      summary: `the plan looks fine.\nProject Falcon-${i} uses port ${4000 + i} in production.\nFACT part${i}=yes`,
      ...extra,
    });

  it("stand as their range, title and specifics; the ones already out keep their text until room is needed, then the oldest give theirs back first", () => {
    const first = standIns([summaryOf(0)], summaryOf(0), { summaryBudgetTokens: 2000 }, counter, true);
    expect(first).toEqual([{ id: "s0", text: "[#1–#10, not shown] Part 0\nProject Falcon-0 uses port 4000 in production.\nFACT part0=yes" }]);
    const out = Array.from({ length: 8 }, (_, i) => {
      const record = summaryOf(i);
      return { ...record, outOfView: standIns([record], record, { summaryBudgetTokens: 2000 }, counter, true)[0]!.text };
    });
    const leaving = summaryOf(8);
    // Room enough: only the newcomer is written; the request's start stays as it was.
    expect(standIns([...out, leaving], leaving, { summaryBudgetTokens: 2000 }, counter, true).map((e) => e.id)).toEqual(["s8"]);
    // Little room: the oldest shrink first (to their line, then to nothing but FACT lines), the newest keep their text.
    for (const preserveFacts of [true, false]) {
      const changed = standIns([...out, leaving], leaving, { summaryBudgetTokens: 160 }, counter, preserveFacts);
      expect(changed.at(-1)!.id).toBe("s8");
      const shrunk = changed.slice(0, -1).map((entry) => Number(entry.id.slice(1)));
      expect(shrunk.length).toBeGreaterThan(0);
      expect(shrunk).toEqual(Array.from({ length: shrunk.length }, (_, i) => i));
      for (const entry of changed.slice(0, -1)) expect(entry.text.length).toBeLessThan(out[Number(entry.id.slice(1))]!.outOfView.length);
      // FACT lines are the user's record: kept whatever the room when they are preserved.
      for (const entry of changed.slice(0, -1)) {
        if (preserveFacts) expect(entry.text).toContain(`FACT part${entry.id.slice(1)}=yes`);
      }
    }
    // No room even for their lines: the oldest keep nothing (without FACT preservation).
    expect(standIns([...out, leaving], leaving, { summaryBudgetTokens: 60 }, counter, false)[0]).toEqual({ id: "s0", text: "" });
  });

  it("are rendered as their stand-in, never merged or folded again, and stay active (nothing is lost)", async () => {
    const { manager } = setup({ keepRecentCount: 2 }, 8192);
    const aside = { ...summaryOf(0), outOfView: "[#1–#10, not shown] Part 0" };
    const transcript = transcriptOf([...chat(2, 200), msg("user", "now")], { compactions: [aside, summaryOf(1)] });
    const request = manager.buildRequest(transcript);
    const texts = request.messages.map((m) => m.content ?? "");
    expect(texts).toContain("[#1–#10, not shown] Part 0");
    expect(texts.join("\n")).not.toContain("Falcon-0");
    const change = await manager.compactNow(transcript);
    expect(change.transcript.compactions.map((c) => c.id)).toContain("s0");
    expect(change.created.every((c) => !c.childIds.includes("s0"))).toBe(true);
  });
});

describe("existing conversations with a deep chain", () => {
  it("keep working: the old levels stay, new compactions follow the tree's rules, the chain's top is never merged again", async () => {
    const { manager } = setup({ keepRecentCount: 4, summaryMaxTokens: 200 }, 6000);
    resetSeq(401);
    const chain = compaction("chain", 1, 400, { level: 40, summary: `The chain held it all. Falcon-1 uses port 4001. ${text(6400)}` });
    let transcript = transcriptOf([...chat(14, 700), msg("user", "and now?")], { compactions: [chain], totalMessageCount: 429 });
    let made = 0;
    for (let round = 0; round < 6; round++) {
      const change = await manager.process(transcript);
      made += change.created.length;
      for (const record of change.created) {
        expect(record.childIds).not.toContain("chain");
        expect(record.level).toBeLessThanOrEqual(levelCap(transcript.totalMessageCount, 4));
      }
      transcript = { ...change.transcript, messages: [...change.transcript.messages, ...chat(6, 700), msg("user", `round ${round}?`)] };
      transcript = { ...transcript, totalMessageCount: transcript.messages.at(-1)!.seq };
    }
    expect(made).toBeGreaterThan(2);
    // Still active (in view, or out of it as a stand-in that keeps its specifics).
    const kept = transcript.compactions.find((c) => c.id === "chain")!;
    expect(kept.level).toBe(40);
    expect(kept.outOfView ?? kept.summary).toContain("Falcon-1 uses port 4001");
  });
});

describe("a summary stored before titles", () => {
  it("shows a title derived from its text; a stored title is shown as it is; a truncation has none", () => {
    const row = (extra: Partial<Compaction>) =>
      ({
        id: "r", conversationId: "c", level: 1, kind: "summary", trigger: "auto", strategy: "ai_summary", fromSeq: 1, toSeq: 9,
        summary: "Summary of 9 earlier lines.\nProject Falcon-3 uses port 4021 in production.", title: null, outOfView: null, sections: null,
        summaryModel: null, instructions: null, summaryTokens: 10, keptSeqs: [], coveredMessageCount: 9, coveredTokens: 900, messagesBefore: 0,
        messagesAfter: 0, tokensBefore: 0, tokensAfter: 0, durationMs: 0, background: false, supersededById: null, undoneAt: null, createdAt: new Date(0),
        ...extra,
      }) as Compaction;
    expect(toCompactionView(row({})).title).toBe("Project Falcon-3 uses port 4021 in production");
    expect(toCompactionView(row({ title: "Ports" })).title).toBe("Ports");
    expect(toCompactionView(row({ kind: "truncation", strategy: "truncation", trigger: "hard_limit" })).title).toBeNull();
  });

  it("counts the messages a fold holds beside the summaries it took; a merge holds none", () => {
    const row = { id: "r", conversationId: "c", level: 2, kind: "summary", trigger: "auto", strategy: "ai_summary", fromSeq: 1, toSeq: 15, summary: "s", title: "t",
      outOfView: null, sections: null, summaryModel: null, instructions: null, summaryTokens: 10, keptSeqs: [], coveredMessageCount: 15, coveredTokens: 900,
      messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0, durationMs: 0, background: false, supersededById: null, undoneAt: null, undoneBy: null,
      callPromptTokens: null, callCachedTokens: null, callCompletionTokens: null, createdAt: new Date(0) } as Compaction;
    expect(toCompactionView(row, { count: 1, coveredMessages: 10 })).toMatchObject({ childCount: 1, looseMessageCount: 5 });
    expect(toCompactionView(row, { count: 2, coveredMessages: 15 })).toMatchObject({ childCount: 2, looseMessageCount: 0 });
    expect(toCompactionView({ ...row, level: 1 })).toMatchObject({ childCount: 0, looseMessageCount: 15 });
  });
});

describe("a stable prefix", () => {
  it("a compaction changes the request only from the first block it replaces: older summaries keep their exact text and position", async () => {
    const { manager } = setup({ keepRecentCount: 4, summaryMaxTokens: 200 }, 6000);
    resetSeq(41);
    const older = [0, 1].map((i) => compaction(`old${i}`, i * 20 + 1, i * 20 + 20, { level: 2 - i, summary: `older part ${i}: Falcon-${i} uses port ${4000 + i}.` }));
    const transcript = transcriptOf([...chat(12, 700), msg("user", "and now?")], { compactions: older, totalMessageCount: 65 });
    const before = manager.buildRequest(transcript).messages;
    const change = await manager.compactNow(transcript);
    expect(change.created.length).toBeGreaterThan(0);
    const after = manager.buildRequest(change.transcript).messages;
    // The system prompt, the history notice and both older summaries are unchanged, in place.
    expect(after.slice(0, 4)).toEqual(before.slice(0, 4));
    expect(after[4]).not.toEqual(before[4]);
  });
});
