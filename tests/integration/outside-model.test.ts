// The chat loop, the database and the engine against a model server that shares
// nothing with the app (tests/support/outside-model): its own token count (and a
// 400 for any request over its window), its own summaries, its own streaming.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { backgroundSettled } from "../../lib/chat/compressor";
import { contextBudget } from "../../lib/compression/budget";
import { factSentence } from "../support/simulation";
import { newConversation, saveTestSettings, send, setupHarness } from "../support/harness";
import { startOutsideModel, type OutsideModel, type RecordedRequest } from "../support/outside-model/server";
import { chatter } from "../support/simulation";
import { mulberry32 } from "../support/outside-model/behaviour";

const h = setupHarness();
let outside: OutsideModel;
const MODEL = "outside-small";

beforeAll(async () => {
  outside = await startOutsideModel({ summaryMode: "terse", seed: 7 });
  process.env.OPENAI_BASE_URL = outside.url;
});
beforeEach(() => {
  outside.reset();
  outside.configure({ summaryMode: "terse", titles: "follow", failRate: 0, usage: "always", contextWindow: undefined });
});
afterAll(async () => {
  await outside.close();
});

type Run = { conversationId: string; probes: string[]; lastChat: RecordedRequest };

/** `turns` turns of ordinary chat with a plain-sentence fact every fourth, waiting for background work like a user would not. */
async function converse(window: number, turns: number, replyTokens: number): Promise<Run> {
  outside.configure({ contextWindow: window });
  const conversation = await newConversation(MODEL, "You are a helpful assistant.");
  const rng = mulberry32(window);
  const probes: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    let content = `${chatter(rng, 60)} <<reply ${replyTokens}>>`;
    if (turn % 4 === 0) {
      const fact = factSentence(probes.length);
      content += `\n${fact.text}`;
      probes.push(fact.probe);
    }
    const events = await send(conversation.id, content);
    expect(events.find((e) => e.type === "error"), `turn ${turn}`).toBeUndefined();
    await backgroundSettled(conversation.id);
  }
  const lastChat = outside.requests().filter((r) => r.kind === "chat").at(-1)!;
  return { conversationId: conversation.id, probes, lastChat };
}

function requestText(request: RecordedRequest): string {
  return ((request.body as { messages: { content?: string | null }[] }).messages ?? []).map((m) => m.content ?? "").join("\n");
}

async function expectPromiseKept(run: Run, window: number) {
  // No request over the window by the server's own count (it would have answered 400).
  expect(outside.stats().overWindow).toBe(0);
  for (const request of outside.requests()) expect(request.promptTokens).toBeLessThanOrEqual(window);
  // Summaries, and no truncation while they succeed.
  const attempts = await h.db.compactionAttempt.findMany({ where: { conversationId: run.conversationId }, orderBy: { createdAt: "asc" } });
  expect(attempts.some((a) => a.outcome === "applied" && a.trigger === "auto")).toBe(true);
  expect(attempts.filter((a) => a.trigger === "hard_limit")).toEqual([]);
  // Every fact an active summary holds reaches the model.
  const active = await h.db.compaction.findMany({ where: { conversationId: run.conversationId, supersededById: null, undoneAt: null } });
  const sent = requestText(run.lastChat);
  for (const probe of run.probes) if (active.some((c) => c.summary.includes(probe))) expect(sent).toContain(probe);
  // Nothing lost: every message is stored.
  const stored = await h.db.message.count({ where: { conversationId: run.conversationId } });
  expect(stored).toBeGreaterThanOrEqual(run.probes.length * 4 * 2);
}

/**
 * The summary requests the outside model saw, by framing: shared ones are the chat
 * request plus one instruction, so each offers exactly the tools of the chat request
 * before it (which grow once something is compressed: the history tools join them).
 */
function sharedSummaryRequests(): { shared: number; compact: number } {
  const requests = outside.requests();
  const toolsOf = (index: number) => (requests[index]!.body as { tools?: unknown }).tools;
  const counts = { shared: 0, compact: 0 };
  requests.forEach((request, index) => {
    if (request.kind !== "summary") return;
    if (toolsOf(index) === undefined) return void counts.compact++;
    const chatBefore = requests.slice(0, index).findLastIndex((r) => r.kind === "chat");
    expect(toolsOf(index)).toEqual(toolsOf(chatBefore));
    counts.shared++;
  });
  return counts;
}

describe("against the outside model", () => {
  it("default settings at an 8k window: summaries, no truncation, nothing over the window", async () => {
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 8192 } });
    const run = await converse(8192, 48, 180);
    await expectPromiseKept(run, 8192);
    // The summary model is the chat model: summary requests are the chat request plus one
    // instruction, so they offer the chat's tools and a cache serves most of them.
    expect(sharedSummaryRequests().shared).toBeGreaterThan(0);
    const cache = outside.promptCache();
    expect(cache.summaryCachedTokens / cache.summaryPromptTokens).toBeGreaterThan(0.6);
  }, 120_000);

  it("default settings at a 16k window", async () => {
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 16_384 } });
    const run = await converse(16_384, 48, 400);
    await expectPromiseKept(run, 16_384);
  }, 120_000);

  it("a tight 3k configuration with terse summaries and usage that is sometimes missing", async () => {
    outside.configure({ usage: "random" });
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 3000 }, keepRecentCount: 6, hardLimitReserve: 400, maxSummaryTokensPerLevel: 500 });
    const run = await converse(3000, 48, 90);
    await expectPromiseKept(run, 3000);
    const calls = outside.requests().filter((r) => r.kind === "summary").length;
    expect(calls).toBeLessThanOrEqual(48 / 2 + 2);
  }, 120_000);

  it("verbose summaries that ignore max_tokens are stored within the bound", async () => {
    outside.configure({ summaryMode: "verbose" });
    const settings = await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 8192 }, summaryMaxTokens: 300 });
    const run = await converse(8192, 40, 180);
    await expectPromiseKept(run, 8192);
    const summaries = await h.db.compaction.findMany({ where: { conversationId: run.conversationId, kind: "summary" } });
    expect(summaries.length).toBeGreaterThan(0);
    // A summary of new messages keeps to summaryMaxTokens; a fold or merge (level 2 and up)
    // carries several summaries and keeps to the level budget (docs/design.md, "Levels").
    const { levelBudgetTokens } = contextBudget(8192, settings);
    for (const summary of summaries) expect(summary.summaryTokens).toBeLessThanOrEqual(summary.level === 1 ? 300 : levelBudgetTokens);
  }, 120_000);

  it("with a summarizer failing 30% of the time the chat goes on and nothing is ever over the window", async () => {
    outside.configure({ failRate: 0.3 });
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 4096 } });
    const run = await converse(4096, 40, 150);
    expect(outside.stats().overWindow).toBe(0);
    expect(outside.stats().failed).toBeGreaterThan(0);
    const attempts = await h.db.compactionAttempt.findMany({ where: { conversationId: run.conversationId } });
    // A truncation only ever follows a failed summary.
    for (const attempt of attempts.filter((a) => a.trigger === "hard_limit" && a.outcome === "applied")) {
      expect(attempt.reason).toMatch(/summarizing failed|disabled/);
    }
  }, 120_000);

  it("a structured summary answered in prose falls back to plain text instead of failing", async () => {
    outside.configure({ summaryMode: "prose" });
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 8192 }, strategy: "structured" });
    const run = await converse(8192, 40, 180);
    await expectPromiseKept(run, 8192);
    const applied = await h.db.compactionAttempt.findMany({ where: { conversationId: run.conversationId, outcome: "applied" } });
    expect(applied.some((a) => /fell back to plain text/.test(a.reason))).toBe(true);
  }, 120_000);

  it("every summary is stored with a title, distinct across blocks, also when the summarizer ignores the request for one", async () => {
    outside.configure({ summaryMode: "lossy", titles: "ignore" });
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 4096 } });
    const run = await converse(4096, 40, 150);
    await expectPromiseKept(run, 4096);
    const summaries = await h.db.compaction.findMany({ where: { conversationId: run.conversationId, kind: "summary" } });

    expect(summaries.length).toBeGreaterThan(2);
    for (const summary of summaries) {
      expect(summary.title).toBeTruthy();
      expect(summary.summary).not.toMatch(/^Title:/m);
    }
    expect(new Set(summaries.map((s) => s.title)).size).toBeGreaterThan(summaries.length / 2);
    // A summarizer that follows the request gives its own line, and it does not stay in the text.
    outside.configure({ titles: "follow" });
    const followed = await converse(4096, 24, 150);
    const titled = await h.db.compaction.findMany({ where: { conversationId: followed.conversationId, kind: "summary" } });
    expect(titled.length).toBeGreaterThan(0);
    for (const summary of titled) expect(summary.summary).not.toMatch(/^Title:/m);
    const asked = outside.requests().filter((r) => r.kind === "summary" && /Title: /.test(r.reply?.text ?? ""));
    expect(asked.length).toBeGreaterThan(0);
  }, 180_000);

  it("the tree's height stays within ⌈log4(messages ÷ keep)⌉ + 1 and a prefix cache keeps serving most of the prompt", async () => {
    outside.configure({ summaryMode: "lossy" });
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 4096 }, keepRecentCount: 6 });
    const run = await converse(4096, 60, 150);
    await expectPromiseKept(run, 4096);
    const all = await h.db.compaction.findMany({ where: { conversationId: run.conversationId, kind: "summary" } });
    const messages = await h.db.message.count({ where: { conversationId: run.conversationId } });
    expect(Math.max(...all.map((c) => c.level))).toBeLessThanOrEqual(Math.ceil(Math.log(messages / 6) / Math.log(4)) + 1);
    // Merges take summaries of one level: every child stands exactly one level below its parent.
    for (const child of all.filter((c) => c.supersededById)) {
      const parent = all.find((c) => c.id === child.supersededById)!;
      expect(parent.level).toBe(child.level + 1);
    }
    const cache = outside.promptCache();
    expect(cache.cachedTokens / cache.promptTokens).toBeGreaterThan(0.6);
    // Under MIN_SHARED_WINDOW every summary request has the compact framing of its own.
    // (One request for each summary stored: the lossy summarizer never fails.)
    expect(sharedSummaryRequests()).toEqual({ shared: 0, compact: all.length });
  }, 180_000);
});
