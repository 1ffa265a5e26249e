// Words for what a user would otherwise have to guess: who wrote a summary, and what the meter's "cut" means.
import { describe, expect, it } from "vitest";
import { strategyLabel, writtenByUser } from "../../../components/format";
import { cutExplanation } from "../../../components/chat/ContextMeter";

describe("strategyLabel", () => {
  it("calls a summary applied from the preview the user's, not the model's", () => {
    expect(strategyLabel({ strategy: "model_provided", trigger: "manual" })).toBe("edited by you");
    expect(writtenByUser({ strategy: "model_provided", trigger: "manual" })).toBe(true);
    expect(strategyLabel({ strategy: "model_provided", trigger: "tool" })).toBe("written by the chat model");
    expect(writtenByUser({ strategy: "model_provided", trigger: "tool" })).toBe(false);
    expect(strategyLabel({ strategy: "ai_summary", trigger: "manual" })).toBe("ai summary");
  });
});

describe("cutExplanation", () => {
  it("says what was cut, from what, and why", () => {
    const text = cutExplanation({ totalTokens: 5_120, hardLimit: 3_800, contextWindow: 4_000 });
    expect(text).toContain("needs 5,120 tokens, more than the hard limit of 3,800");
    expect(text).toContain("is cut to 3,800 tokens");
    expect(text).toContain("the oldest messages leave its view");
    expect(text).toContain("Nothing stored is lost");
  });
});
