// What model calls cost: the admin's price per model and the arithmetic on the tokens a
// server reported. Pure: lib/db reads the rows, the views show the figures.
import { z } from "zod";
import type { CallUsage } from "./compression/types";

const perMillion = z
  .number({ error: "a price must be a number of dollars per million tokens" })
  .finite()
  .min(0, "a price cannot be negative")
  .max(100_000, "a price above $100,000 per million tokens is surely a typo");

/**
 * One model's prices in dollars per million tokens. All three or none: none means that
 * model is shown in tokens only. A cached-input price left out is refused rather than
 * read as the input price, which would bill the server's cache discount away.
 */
export const modelPriceSchema = z
  .object({
    model: z.string().trim().min(1, "name the model").max(200),
    inputPerMillion: perMillion.nullable(),
    cachedInputPerMillion: perMillion.nullable(),
    outputPerMillion: perMillion.nullable(),
  })
  .strict()
  .refine(
    (price) => {
      const set = [price.inputPerMillion, price.cachedInputPerMillion, price.outputPerMillion].filter((value) => value !== null).length;
      return set === 0 || set === 3;
    },
    { message: "give input, cached input and output prices, or none of them (tokens only)" },
  );
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** A price row as the admin page lists it: the one in effect, and since when. */
export type ModelPriceView = ModelPrice & { since: string };

export type Rates = { inputPerMillion: number; cachedInputPerMillion: number; outputPerMillion: number };

/** The rates of a price row, or null when the model is shown in tokens only. */
export function ratesOf(price: Pick<ModelPrice, "inputPerMillion" | "cachedInputPerMillion" | "outputPerMillion"> | null | undefined): Rates | null {
  if (!price || price.inputPerMillion === null || price.cachedInputPerMillion === null || price.outputPerMillion === null) return null;
  return { inputPerMillion: price.inputPerMillion, cachedInputPerMillion: price.cachedInputPerMillion, outputPerMillion: price.outputPerMillion };
}

/** Dollars for calls' usage: cached prompt tokens at the cached price, the rest of the prompt at the input price. */
export function callCost(usage: CallUsage, rates: Rates): number {
  const uncached = usage.promptTokens - usage.cachedTokens;
  return (uncached * rates.inputPerMillion + usage.cachedTokens * rates.cachedInputPerMillion + usage.completionTokens * rates.outputPerMillion) / 1_000_000;
}

const tokens = z.number().int().nonnegative();

/** The calls of some part of a conversation: their tokens, and the dollars of those made while their model had a price. */
export const costFigureSchema = z.object({
  calls: tokens,
  promptTokens: tokens,
  cachedTokens: tokens,
  completionTokens: tokens,
  /** Dollars of the priced calls; null when none was priced. */
  cost: z.number().nonnegative().nullable(),
  /** Calls made while their model had no price: counted in tokens only. */
  unpricedCalls: tokens,
});
export type CostFigure = z.infer<typeof costFigureSchema>;

/** After how many later turns a compaction has paid for itself, and in what it was reckoned. */
const paybackSchema = z.object({ turns: z.number().int().positive(), unit: z.enum(["dollars", "tokens"]) });

export const NO_CALLS: CostFigure = { calls: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0, cost: null, unpricedCalls: 0 };

/** Calls with one price (or none), as a figure. */
export function figureOf(calls: number, usage: CallUsage, rates: Rates | null): CostFigure {
  return { calls, ...usage, cost: rates ? callCost(usage, rates) : null, unpricedCalls: rates ? 0 : calls };
}

export function addFigures(a: CostFigure, b: CostFigure): CostFigure {
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cost: a.cost === null && b.cost === null ? null : (a.cost ?? 0) + (b.cost ?? 0),
    unpricedCalls: a.unpricedCalls + b.unpricedCalls,
  };
}

/**
 * When a compaction has paid for itself: it cost its summary calls once, and makes
 * every later request `savedTokens` shorter. Priced, both sides are dollars (the saving
 * at the chat model's input price now: an upper bound, since some of those tokens would
 * have been served from the cache); otherwise both are tokens. Null: it saves nothing.
 */
export function paybackTurns(compaction: CostFigure, savedTokens: number, chatRates: Rates | null): z.infer<typeof paybackSchema> | null {
  if (savedTokens <= 0) return null;
  if (compaction.cost !== null && compaction.unpricedCalls === 0 && chatRates && chatRates.inputPerMillion > 0) {
    const savedPerTurn = (savedTokens * chatRates.inputPerMillion) / 1_000_000;
    return { turns: Math.max(1, Math.ceil(compaction.cost / savedPerTurn)), unit: "dollars" };
  }
  return { turns: Math.max(1, Math.ceil((compaction.promptTokens + compaction.completionTokens) / savedTokens)), unit: "tokens" };
}

/** One compaction's bill and what it saves. */
export const compactionCostSchema = z.object({
  compactionId: z.string(),
  cost: costFigureSchema,
  /** How much shorter every later request is (our count of the context before and after it). */
  savedTokensPerTurn: tokens,
  /** Dollars that saves per turn at the chat model's price now; null without one. */
  savedPerTurn: z.number().nonnegative().nullable(),
  payback: paybackSchema.nullable(),
  /** Chat replies since it was made. */
  turnsSince: tokens,
});
export type CompactionCostView = z.infer<typeof compactionCostSchema>;

/** What a conversation cost: all of it, the newest turn, and the share that was compaction (summary calls); as GET /api/conversations/:id/cost answers. */
export const conversationCostSchema = z.object({
  total: costFigureSchema,
  thisTurn: costFigureSchema,
  chat: costFigureSchema,
  compaction: costFigureSchema,
  compactions: z.array(compactionCostSchema),
});
export type ConversationCostView = z.infer<typeof conversationCostSchema>;

export type AccountCostView = { total: CostFigure; chat: CostFigure; compaction: CostFigure; conversations: number };
