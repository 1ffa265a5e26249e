// How many conversations' contexts one process keeps between turns: bounded by what they
// hold, not by how many there are, so an instance serving hundreds of conversations at
// once does not read every turn's whole context again.
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { cachedContext, MAX_CACHED_SIZE, rememberContext, type CachedContext } from "@/lib/db/context-cache";

function context(content: string, lastSeq = 2): CachedContext {
  return {
    contextVersion: 1,
    historyVersion: 1,
    lastSeq,
    compactions: [],
    clearings: [],
    messages: [
      { seq: 1, role: "user", content, tokens: 10, pinned: false },
      { seq: 2, role: "assistant", content: "ok", tokens: 2, pinned: false },
    ],
    systemPrompt: "",
    systemPromptTokens: 0,
  };
}

describe("the kept contexts", () => {
  it("keeps the contexts of a thousand small conversations", () => {
    const db = {} as Db;
    for (let index = 0; index < 1000; index++) rememberContext(db, `c${index}`, context(`message of conversation ${index}`));
    for (let index = 0; index < 1000; index++) expect(cachedContext(db, `c${index}`)?.messages[0]?.content).toBe(`message of conversation ${index}`);
  });

  it("lets the least recently used go once the texts they hold pass the bound, and counts a replaced copy once", () => {
    const db = {} as Db;
    const quarter = "x".repeat(Math.floor(MAX_CACHED_SIZE / 4));
    for (const id of ["a", "b", "c"]) rememberContext(db, id, context(quarter));
    // Kept again (a newer copy of the same conversation): "a" is now the most recently used, counted once.
    for (let turn = 3; turn < 10; turn++) rememberContext(db, "a", context(quarter, turn));
    expect(["a", "b", "c"].map((id) => cachedContext(db, id) !== undefined)).toEqual([true, true, true]);
    rememberContext(db, "d", context(quarter));
    expect(["a", "b", "c", "d"].map((id) => cachedContext(db, id) !== undefined)).toEqual([true, false, true, true]);
    expect(cachedContext(db, "a")?.lastSeq).toBe(9);
  });

  it("keeps one context even when it alone is over the bound", () => {
    const db = {} as Db;
    rememberContext(db, "small", context("hi"));
    rememberContext(db, "huge", context("y".repeat(MAX_CACHED_SIZE + 1)));
    expect(cachedContext(db, "huge")).toBeDefined();
    expect(cachedContext(db, "small")).toBeUndefined();
  });
});
