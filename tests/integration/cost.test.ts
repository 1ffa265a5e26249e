// What conversations cost, checked against a model server that reports its own usage
// (tests/support/outside-model: its own token count and its own prompt-cache rule). The
// figures stored and shown must be the server's, cached tokens included; a price
// applies from the next call on; only the admin sets prices.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { backgroundSettled } from "../../lib/chat/compressor";
import * as ops from "../../lib/chat/operations";
import { metrics } from "../../lib/server/metrics";
import { conversationCostSchema } from "../../lib/pricing";
import { newConversation, refusal, saveTestSettings, send, setupHarness } from "../support/harness";
import { signUp, uniqueEmail, withEnv } from "../support/accounts";
import { startOutsideModel, type OutsideModel, type RecordedRequest } from "../support/outside-model/server";
import { chatter } from "../support/simulation";
import { mulberry32 } from "../support/outside-model/behaviour";

const h = setupHarness();
let outside: OutsideModel;
const MODEL = "outside-small";
// Long enough that consecutive requests share over 1,024 tokens, the outside model's cache minimum.
const SYSTEM_PROMPT = `You are a careful assistant. ${"Answer plainly and keep to the facts the user gives you. ".repeat(80)}`;
const SUMMARY_PROMPT = `Summarize the conversation for later turns. ${"Keep every number, name and decision; drop small talk. ".repeat(90)}`;
const PRICE = { model: MODEL, inputPerMillion: 2.5, cachedInputPerMillion: 0.25, outputPerMillion: 10 };

const admin = () => ({ id: h.user.id, role: "admin" as const });
const owner = () => ({ id: h.user.id, role: "user" as const });

beforeAll(async () => {
  outside = await startOutsideModel({ summaryMode: "terse", seed: 3 });
  process.env.OPENAI_BASE_URL = outside.url;
});
beforeEach(async () => {
  outside.reset();
  outside.configure({ summaryMode: "terse", usage: "always", failRate: 0, contextWindow: undefined });
  await h.db.modelPrice.deleteMany();
});
afterAll(async () => {
  await outside.close();
});

async function converse(conversationId: string, turns: number, seed: number): Promise<void> {
  const rng = mulberry32(seed);
  for (let turn = 0; turn < turns; turn++) {
    const events = await send(conversationId, `${chatter(rng, 50)} The code is ${seed * 100 + turn}. <<reply 120>>`);
    expect(events.find((e) => e.type === "error"), `turn ${turn}`).toBeUndefined();
    await backgroundSettled(conversationId);
  }
}

type Sums = { promptTokens: number; cachedTokens: number; completionTokens: number };
const answered = (kind: RecordedRequest["kind"]) => outside.requests().filter((r) => r.kind === kind && r.status === 200);
function reported(requests: RecordedRequest[]): Sums {
  return {
    promptTokens: requests.reduce((sum, r) => sum + r.promptTokens, 0),
    cachedTokens: requests.reduce((sum, r) => sum + r.cachedTokens, 0),
    completionTokens: requests.reduce((sum, r) => sum + (r.reply?.completionTokens ?? 0), 0),
  };
}
/** The bill by the price table's arithmetic, done here from the server's figures. */
function dollars(sums: Sums, price: typeof PRICE): number {
  return ((sums.promptTokens - sums.cachedTokens) * price.inputPerMillion + sums.cachedTokens * price.cachedInputPerMillion + sums.completionTokens * price.outputPerMillion) / 1e6;
}
const tokensOf = (figure: Sums): Sums => ({ promptTokens: figure.promptTokens, cachedTokens: figure.cachedTokens, completionTokens: figure.completionTokens });

describe("cost against the outside model", () => {
  it("stores and shows the server-reported usage of chat and summary calls, cached tokens included", async () => {
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 3500 }, customPrompt: SUMMARY_PROMPT });
    await ops.savePrice(admin(), PRICE);
    const counter = async (kind: string, type: string) =>
      (await metrics().modelTokens.get()).values.find((v) => v.labels.kind === kind && v.labels.type === type)?.value ?? 0;
    const countersBefore = { chat: await counter("chat", "cached"), summary: await counter("summary", "prompt"), summaryCached: await counter("summary", "cached") };
    const conversation = await newConversation(MODEL, SYSTEM_PROMPT);
    await converse(conversation.id, 18, 5);

    const chat = reported(answered("chat"));
    const summary = reported(answered("summary"));
    // The run means something: the server served some of both kinds from its cache.
    expect(chat.cachedTokens).toBeGreaterThan(0);
    expect(summary.promptTokens).toBeGreaterThan(0);
    expect(summary.cachedTokens).toBeGreaterThan(0);

    // Stored per call: each reply its own call's figures, each attempt the sum of its calls'.
    const replies = await h.db.message.findMany({ where: { conversationId: conversation.id, role: "assistant" }, orderBy: { seq: "asc" } });
    expect(replies.map((m) => [m.promptTokens, m.cachedTokens, m.completionTokens])).toEqual(
      answered("chat").map((r) => [r.promptTokens, r.cachedTokens, r.reply?.completionTokens]),
    );
    const attempts = await h.db.compactionAttempt.findMany({ where: { conversationId: conversation.id } });
    expect({
      promptTokens: attempts.reduce((sum, a) => sum + (a.callPromptTokens ?? 0), 0),
      cachedTokens: attempts.reduce((sum, a) => sum + (a.callCachedTokens ?? 0), 0),
      completionTokens: attempts.reduce((sum, a) => sum + (a.callCompletionTokens ?? 0), 0),
    }).toEqual(summary);

    // Shown: the same figures, and dollars by the price table.
    const cost = await ops.conversationCost(owner(), conversation.id);
    // What the browser checks the route's answer against.
    expect(conversationCostSchema.parse(cost)).toEqual(cost);
    expect(tokensOf(cost.chat)).toEqual(chat);
    expect(tokensOf(cost.compaction)).toEqual(summary);
    expect(cost.total.cost).toBeCloseTo(dollars(chat, PRICE) + dollars(summary, PRICE), 12);
    expect(cost.compaction.cost).toBeCloseTo(dollars(summary, PRICE), 12);
    expect(cost.total.unpricedCalls).toBe(0);
    // This turn: from the newest user message on (each turn's background work was awaited before the next).
    const lastUser = await h.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, role: "user" }, orderBy: { seq: "desc" } });
    const sinceLastUser = outside.requests().filter((r) => r.status === 200 && r.time >= lastUser.createdAt.getTime());
    expect(sinceLastUser.filter((r) => r.kind === "chat")).toHaveLength(1);
    expect(tokensOf(cost.thisTurn)).toEqual(reported(sinceLastUser));

    // Per compaction: its own calls, what it saves per turn, and the payback.
    const compactions = await h.db.compaction.findMany({ where: { conversationId: conversation.id, undoneAt: null } });
    expect(compactions.length).toBeGreaterThan(0);
    for (const row of compactions) {
      const entry = cost.compactions.find((c) => c.compactionId === row.id)!;
      expect(entry.savedTokensPerTurn).toBe(row.tokensBefore - row.tokensAfter);
      if (row.callPromptTokens === null) continue;
      const own = { promptTokens: row.callPromptTokens, cachedTokens: row.callCachedTokens ?? 0, completionTokens: row.callCompletionTokens ?? 0 };
      expect(entry.cost.cost).toBeCloseTo(dollars(own, PRICE), 12);
      const savedPerTurn = (entry.savedTokensPerTurn * PRICE.inputPerMillion) / 1e6;
      expect(entry.payback).toEqual({ turns: Math.max(1, Math.ceil(dollars(own, PRICE) / savedPerTurn)), unit: "dollars" });
    }

    // Per user, and in the metrics.
    const account = await ops.accountCost(owner());
    expect(account.total.promptTokens).toBeGreaterThanOrEqual(chat.promptTokens + summary.promptTokens);
    expect((await counter("chat", "cached")) - countersBefore.chat).toBe(chat.cachedTokens);
    expect((await counter("summary", "prompt")) - countersBefore.summary).toBe(summary.promptTokens);
    expect((await counter("summary", "cached")) - countersBefore.summaryCached).toBe(summary.cachedTokens);
  }, 120_000);

  it("a compaction that takes several summary calls (turn digests) stores their sum", async () => {
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 3500 }, strategy: "turn_digest" });
    const conversation = await newConversation(MODEL, SYSTEM_PROMPT);
    await converse(conversation.id, 14, 6);
    const summary = reported(answered("summary"));
    const attempts = await h.db.compactionAttempt.findMany({ where: { conversationId: conversation.id, callPromptTokens: { not: null } } });
    // More calls than attempts: some attempt made several.
    expect(answered("summary").length).toBeGreaterThan(attempts.length);
    expect({
      promptTokens: attempts.reduce((sum, a) => sum + (a.callPromptTokens ?? 0), 0),
      cachedTokens: attempts.reduce((sum, a) => sum + (a.callCachedTokens ?? 0), 0),
      completionTokens: attempts.reduce((sum, a) => sum + (a.callCompletionTokens ?? 0), 0),
    }).toEqual(summary);
    const compactions = await h.db.compaction.findMany({ where: { conversationId: conversation.id } });
    for (const row of compactions) {
      const applied = attempts.find((a) => a.compactionId === row.id);
      expect([row.callPromptTokens, row.callCachedTokens, row.callCompletionTokens]).toEqual([
        applied?.callPromptTokens ?? null,
        applied?.callCachedTokens ?? null,
        applied?.callCompletionTokens ?? null,
      ]);
    }
    expect((await ops.conversationCost(owner(), conversation.id)).compaction.promptTokens).toBe(summary.promptTokens);
  }, 120_000);

  it("a price change applies from the next turn on and leaves earlier turns as they were", async () => {
    const conversation = await newConversation(MODEL, SYSTEM_PROMPT);
    await converse(conversation.id, 2, 9);
    // Made while the model had no price: tokens only, for good.
    const unpriced = await ops.conversationCost(owner(), conversation.id);
    expect(unpriced.total.cost).toBeNull();
    expect(unpriced.total.unpricedCalls).toBe(2);

    await ops.savePrice(admin(), PRICE);
    await converse(conversation.id, 1, 10);
    const first = await ops.conversationCost(owner(), conversation.id);
    const third = reported([answered("chat").at(-1)!]);
    expect(third.cachedTokens).toBeGreaterThan(0);
    expect(first.thisTurn.cost).toBeCloseTo(dollars(third, PRICE), 12);
    expect(first.total.cost).toBeCloseTo(dollars(third, PRICE), 12);

    const doubled = { ...PRICE, inputPerMillion: 5, cachedInputPerMillion: 0.5, outputPerMillion: 20 };
    await ops.savePrice(admin(), doubled);
    // Nothing earlier is repriced.
    expect((await ops.conversationCost(owner(), conversation.id)).total.cost).toBeCloseTo(first.total.cost!, 12);
    await converse(conversation.id, 1, 11);
    const fourth = reported([answered("chat").at(-1)!]);
    const after = await ops.conversationCost(owner(), conversation.id);
    expect(after.thisTurn.cost).toBeCloseTo(dollars(fourth, doubled), 12);
    expect(after.total.cost).toBeCloseTo(first.total.cost! + dollars(fourth, doubled), 12);
    expect(after.total.unpricedCalls).toBe(2);
  }, 60_000);

  it("only the admin sets prices; bad prices are refused and nothing is stored", async () => {
    const someone = await signUp(uniqueEmail("not-admin"));
    expect((await refusal(ops.savePrice({ id: someone.id, role: "user" }, PRICE))).code).toBe("forbidden");
    expect((await refusal(ops.prices({ id: someone.id, role: "user" }))).code).toBe("forbidden");
    for (const bad of [
      { ...PRICE, cachedInputPerMillion: null },
      { ...PRICE, inputPerMillion: -1 },
      { ...PRICE, model: " " },
      { ...PRICE, outputPerMillion: "10" },
      { ...PRICE, extra: 1 },
    ]) {
      expect((await refusal(ops.savePrice(admin(), bad))).code).toBe("invalid_input");
    }
    expect(await h.db.modelPrice.count()).toBe(0);
    expect(await ops.savePrice(admin(), PRICE)).toEqual([expect.objectContaining(PRICE)]);
    // Cleared: the model is tokens only again.
    expect(await ops.savePrice(admin(), { model: MODEL, inputPerMillion: null, cachedInputPerMillion: null, outputPerMillion: null })).toEqual([]);
  });

  it("chat and summary requests of a conversation carry one prompt_cache_key, and none when switched off", async () => {
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 3500 } });
    const keyOf = (r: RecordedRequest) => (r.body as { prompt_cache_key?: string }).prompt_cache_key;
    const a = await newConversation(MODEL, SYSTEM_PROMPT);
    await converse(a.id, 10, 12);
    const keys = new Set(outside.requests().map(keyOf));
    expect(outside.requests().some((r) => r.kind === "summary")).toBe(true);
    expect(keys.size).toBe(1);
    const [key] = keys;
    expect(key).toMatch(/^strata-[0-9a-f]{32}$/);
    expect(key).not.toContain(a.id);

    outside.reset();
    const b = await newConversation(MODEL, SYSTEM_PROMPT);
    await converse(b.id, 1, 13);
    expect(keyOf(outside.requests()[0]!)).not.toBe(key);

    outside.reset();
    await withEnv({ STRATA_PROMPT_CACHE_KEY: "0" }, () => converse(b.id, 1, 14));
    expect(outside.requests().map(keyOf)).toEqual([undefined]);
  }, 120_000);
});
