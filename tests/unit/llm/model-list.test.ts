// The picker's list: the current model, the server's and the admin's, each once; the
// admin's list as stored (trimmed, blank lines and duplicates dropped, bounded).
import { describe, expect, it } from "vitest";
import { adminModelListSchema, mergeModelChoices } from "../../../lib/llm/model-list";

describe("mergeModelChoices", () => {
  it("puts the conversation's model first and lists every name once", () => {
    expect(mergeModelChoices(["a", "b"], ["b", "c"], "typed")).toEqual({ models: ["typed", "a", "b", "c"], serverListed: true });
    expect(mergeModelChoices(["a", "b"], [], "b").models).toEqual(["b", "a"]);
  });

  it("without the server's answer: the admin's list and the current model, said so", () => {
    expect(mergeModelChoices(null, ["house"], "a")).toEqual({ models: ["a", "house"], serverListed: false });
  });
});

describe("adminModelListSchema", () => {
  it("trims, drops blank lines and duplicates, keeps the order", () => {
    expect(adminModelListSchema.parse([" b ", "", "a", "b", "  "])).toEqual(["b", "a"]);
  });

  it("refuses a long name and a long list with messages that say so", () => {
    expect(adminModelListSchema.safeParse(["x".repeat(201)]).error?.issues[0]?.message).toMatch(/at most 200 characters/);
    expect(adminModelListSchema.safeParse(Array.from({ length: 101 }, (_, i) => `m${i}`)).error?.issues[0]?.message).toMatch(/At most 100/);
    // Blank lines do not count toward the bound.
    expect(adminModelListSchema.parse([...Array.from({ length: 100 }, (_, i) => `m${i}`), "", " "])).toHaveLength(100);
  });
});
