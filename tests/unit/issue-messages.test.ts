// What a refused field says, through invalidInput: the message every API route and
// server action answers with. zod's English is replaced; our schemas' own words stay.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidInput } from "@/lib/errors";

function refusal(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected a refusal");
  return invalidInput(result.error);
}

describe("refused fields in plain words", () => {
  const cases: [string, z.ZodType, unknown, string][] = [
    ["a number over its maximum", z.object({ threshold: z.number().max(1) }), { threshold: 5 }, "threshold: Must be at most 1."],
    ["a number under an exclusive minimum", z.object({ price: z.number().gt(0) }), { price: 0 }, "price: Must be more than 0."],
    ["a large bound, with separators", z.object({ tokens: z.number().max(10_000) }), { tokens: 20_000 }, "tokens: Must be at most 10,000."],
    ["a fraction where a whole number is wanted", z.object({ keep: z.number().int() }), { keep: 1.5 }, "keep: Must be a whole number."],
    ["text where a number is wanted", z.object({ threshold: z.number() }), { threshold: "high" }, "threshold: Must be a number."],
    ["a missing field", z.object({ name: z.string() }), {}, "name: Required: text."],
    ["an empty string", z.object({ name: z.string().min(1) }), { name: "" }, "name: Must not be empty."],
    ["a long string", z.object({ name: z.string().max(3) }), { name: "abcd" }, "name: Must be at most 3 characters long."],
    ["a long list", z.object({ models: z.array(z.string()).max(1) }), { models: ["a", "b"] }, "models: Must have at most 1 item."],
    ["an unknown option", z.object({ strategy: z.enum(["ai_summary", "structured"]) }), { strategy: "magic" }, 'strategy: Must be one of "ai_summary", "structured".'],
    ["an unknown field", z.object({ a: z.number() }).strict(), { a: 1, b: 2 }, "Unknown field: b."],
    ["a nested field", z.object({ overrides: z.record(z.string(), z.number()) }), { overrides: { "gpt-4o": "big" } }, "overrides.gpt-4o: Must be a number."],
  ];
  for (const [what, schema, input, message] of cases) {
    it(what, () => {
      const error = refusal(schema, input);
      expect(error.message).toBe(message);
      expect(error.message).not.toMatch(/expected|received|<=|>=|Too big|Too small/);
    });
  }

  it("keeps a message the schema sets itself", () => {
    const schema = z.object({ threshold: z.number().max(1, { message: "The threshold is a share of the window, at most 1." }) });
    expect(refusal(schema, { threshold: 5 }).message).toBe("threshold: The threshold is a share of the window, at most 1.");
  });

  it("says the same per field", () => {
    const error = refusal(z.object({ a: z.number().max(1), b: z.string() }), { a: 2, b: 3 });
    expect(error.details).toEqual({ a: ["Must be at most 1."], b: ["Must be text."] });
  });
});
