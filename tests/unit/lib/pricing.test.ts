import { describe, expect, it } from "vitest";
import { addFigures, callCost, figureOf, modelPriceSchema, NO_CALLS, paybackTurns } from "../../../lib/pricing";

const RATES = { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 };

describe("callCost", () => {
  it("bills cached prompt tokens at the cached price and the rest of the prompt at the input price", () => {
    // 1M prompt of which 600k cached: 400k × 2 + 600k × 0.5 per million, plus 100k × 8 per million.
    expect(callCost({ promptTokens: 1_000_000, cachedTokens: 600_000, completionTokens: 100_000 }, RATES)).toBeCloseTo(0.8 + 0.3 + 0.8, 12);
  });
});

describe("figures", () => {
  it("adds priced and unpriced calls, keeping the cost null only when nothing was priced", () => {
    const usage = { promptTokens: 1000, cachedTokens: 0, completionTokens: 10 };
    const unpriced = figureOf(2, usage, null);
    expect(unpriced).toMatchObject({ calls: 2, cost: null, unpricedCalls: 2 });
    expect(addFigures(NO_CALLS, unpriced).cost).toBeNull();
    const both = addFigures(unpriced, figureOf(1, usage, RATES));
    expect(both).toMatchObject({ calls: 3, promptTokens: 2000, unpricedCalls: 2, cost: callCost(usage, RATES) });
  });
});

describe("paybackTurns", () => {
  it("in dollars when priced: the compaction's cost over what it saves per turn at the input price", () => {
    const compaction = figureOf(1, { promptTokens: 3000, cachedTokens: 0, completionTokens: 250 }, RATES);
    // Cost 0.006 + 0.002 = 0.008; saves 1,000 tokens × 2 per million = 0.002 per turn → 4 turns.
    expect(paybackTurns(compaction, 1000, RATES)).toEqual({ turns: 4, unit: "dollars" });
  });

  it("in tokens without a price, and not at all when nothing is saved", () => {
    const compaction = figureOf(1, { promptTokens: 3000, cachedTokens: 0, completionTokens: 250 }, null);
    expect(paybackTurns(compaction, 1000, null)).toEqual({ turns: 4, unit: "tokens" });
    expect(paybackTurns(compaction, 0, null)).toBeNull();
  });
});

describe("modelPriceSchema", () => {
  it("takes all three prices or none", () => {
    expect(modelPriceSchema.safeParse({ model: "m", inputPerMillion: 1, cachedInputPerMillion: 0.1, outputPerMillion: 2 }).success).toBe(true);
    expect(modelPriceSchema.safeParse({ model: "m", inputPerMillion: null, cachedInputPerMillion: null, outputPerMillion: null }).success).toBe(true);
    expect(modelPriceSchema.safeParse({ model: "m", inputPerMillion: 1, cachedInputPerMillion: null, outputPerMillion: 2 }).success).toBe(false);
    expect(modelPriceSchema.safeParse({ model: "m", inputPerMillion: Number.NaN, cachedInputPerMillion: 0, outputPerMillion: 2 }).success).toBe(false);
  });
});
