import { describe, expect, it } from "vitest";
import {
  contextWindow,
  createModelCatalog,
  DEFAULT_CONTEXT_WINDOW,
  modelCatalog,
} from "@/lib/llm/models";

describe("contextWindow", () => {
  it.each([
    ["gpt-4o", 128_000],
    ["gpt-4o-mini", 128_000],
    ["gpt-4o-2024-08-06", 128_000],
    ["gpt-4.1", 1_047_576],
    ["gpt-4.1-mini", 1_047_576],
    ["gpt-5", 400_000],
    ["gpt-5-mini", 400_000],
    ["o3", 200_000],
    ["o4-mini", 200_000],
    ["gpt-3.5-turbo", 16_385],
    ["gpt-4", 8192],
    ["gpt-4-0613", 8192],
    ["gpt-4-turbo", 128_000],
    ["llama3", 8192],
    ["llama3:8b", 8192],
    ["llama3.1:70b", 131_072],
    ["openai/gpt-4o-mini", 128_000],
    ["GPT-4o", 128_000],
  ])("%s → %i", (model, window) => {
    expect(contextWindow(model)).toBe(window);
  });

  it("falls back to the default for unknown models", () => {
    expect(DEFAULT_CONTEXT_WINDOW).toBe(128_000);
    expect(contextWindow("my-local-finetune")).toBe(DEFAULT_CONTEXT_WINDOW);
  });

  it("lets overrides win, exact first, then by prefix", () => {
    expect(contextWindow("gpt-4o", { "gpt-4o": 4096 })).toBe(4096);
    expect(contextWindow("my-local-finetune", { "my-local": 32_000 })).toBe(32_000);
    expect(contextWindow("llama3.1:8b", { "llama3.1:8b": 2048, "llama3.1": 9999 })).toBe(2048);
    expect(contextWindow("gpt-4o-mini", { "gpt-4o": 1000, "gpt-4o-mini": 2000 })).toBe(2000);
    expect(contextWindow("gpt-4o-mini", { "other-model": 1000 })).toBe(128_000);
  });
});

describe("ModelCatalog", () => {
  it("uses the table", () => {
    expect(modelCatalog.contextWindow("gpt-4.1")).toBe(1_047_576);
  });

  it("takes the settings' overrides with each call, over its own defaults", () => {
    const catalog = createModelCatalog({ "my-local": 16_000 });
    expect(catalog.contextWindow("strata-demo")).toBe(12_288);
    expect(catalog.contextWindow("strata-demo", { "strata-demo": 2048 })).toBe(2048);
    expect(catalog.contextWindow("my-local-model")).toBe(16_000);
    expect(catalog.contextWindow("my-local-model", { "my-local": 4096 })).toBe(4096);
  });
});

describe("lookups with many overrides (issue 25, item 2)", () => {
  /** `overrides` behind a proxy that counts how often its names are listed (what indexing them takes). */
  function counted(overrides: Record<string, number>) {
    const listings = { count: 0 };
    const proxy = new Proxy(overrides, {
      ownKeys(target) {
        listings.count++;
        return Reflect.ownKeys(target);
      },
    });
    return { proxy, listings };
  }
  const many = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`local-${index}`, 1000 + index]));

  it("indexes a settings object's overrides once, not on every lookup", () => {
    const { proxy, listings } = counted(many);
    for (let index = 0; index < 200; index++) expect(contextWindow(`local-${index}:latest`, proxy)).toBe(1000 + index);
    expect(contextWindow("gpt-4o", proxy)).toBe(128_000);
    expect(listings.count).toBe(1);
  });

  it("… in a catalog with defaults too", () => {
    const { proxy, listings } = counted(many);
    const catalog = createModelCatalog({ "local-1": 5, other: 7 });
    expect(catalog.contextWindow("local-1", proxy)).toBe(1001);
    expect(catalog.contextWindow("other-model", proxy)).toBe(7);
    for (let index = 0; index < 50; index++) catalog.contextWindow(`local-${index}`, proxy);
    expect(listings.count).toBe(1);
  });

  it("matches names like the ones every object inherits as plain names", () => {
    expect(contextWindow("constructor", { constructor: 4096 })).toBe(4096);
    expect(contextWindow("toString-7b", { tostring: 2048 })).toBe(2048);
    expect(contextWindow("valueOf", {})).toBe(DEFAULT_CONTEXT_WINDOW);
  });
});
