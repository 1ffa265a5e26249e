// The conversation dialog's messages: bounds read from the schema, and the threshold rule naming the setting it conflicts with.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeRule, numberRule, overrideErrors } from "../../../components/chat/override-errors";
import { BUILT_IN } from "../../../lib/settings-layers";

describe("describeRule", () => {
  it("reads bounds and whether each is allowed from the schema", () => {
    expect(describeRule("Auto threshold", numberRule(z.number().gt(0).lte(1)))).toBe("Auto threshold must be a number above 0 and at most 1.");
    expect(describeRule("X", numberRule(z.number().gte(0.1).lte(0.99)))).toBe("X must be a number from 0.1 to 0.99.");
    expect(describeRule("Keep recent", numberRule(z.number().int().nonnegative()))).toBe("Keep recent must be a whole number, 0 or more.");
    expect(describeRule("Y", numberRule(z.number().int().min(1000).max(600_000)))).toBe("Y must be a whole number from 1,000 to 600,000.");
  });
});

describe("overrideErrors", () => {
  const resolved = { settings: { ...BUILT_IN.settings, preemptiveThreshold: 0.65 }, sources: { ...BUILT_IN.sources, preemptiveThreshold: "user" as const } };

  it("says what a field takes instead of zod's words, for text, empty and out-of-range values", () => {
    for (const text of ["abc", "", "1.5", "0"]) {
      expect(overrideErrors({ threshold: text }, resolved)).toEqual({ threshold: ["Auto threshold must be a number above 0 and at most 1."] });
    }
    expect(overrideErrors({ keepRecentCount: "2.5" }, resolved)).toEqual({ keepRecentCount: ["Keep recent must be a whole number, 0 or more."] });
    expect(overrideErrors({ threshold: "0.9", keepRecentCount: " 4 " }, resolved)).toEqual({});
  });

  it("names the pre-emptive threshold, its value and where it is set when the threshold is not above it", () => {
    const [message] = overrideErrors({ threshold: "0.5" }, resolved).threshold ?? [];
    expect(message).toContain("must be above the pre-emptive threshold, 0.65 (from your settings)");
    expect(overrideErrors({ threshold: "0.65" }, resolved).threshold).toHaveLength(1);
    // Off (0): no conflict.
    expect(overrideErrors({ threshold: "0.5" }, { ...resolved, settings: { ...resolved.settings, preemptiveThreshold: 0 } })).toEqual({});
  });
});
