import { describe, expect, it } from "vitest";
import {
  contextWindow,
  createModelCatalog,
  DEFAULT_CONTEXT_WINDOW,
  DEMO_MODEL,
  isKnownModel,
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

  it("gives the demo model a small window so compression shows up quickly", () => {
    expect(DEMO_MODEL).toBe("strata-demo");
    expect(contextWindow("strata-demo")).toBe(8192);
  });

  it("falls back to the default for unknown models", () => {
    expect(DEFAULT_CONTEXT_WINDOW).toBe(128_000);
    expect(contextWindow("my-local-finetune")).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(isKnownModel("my-local-finetune")).toBe(false);
    expect(isKnownModel("gpt-4o-mini")).toBe(true);
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
    expect(catalog.contextWindow("strata-demo")).toBe(8192);
    expect(catalog.contextWindow("strata-demo", { "strata-demo": 2048 })).toBe(2048);
    expect(catalog.contextWindow("my-local-model")).toBe(16_000);
    expect(catalog.contextWindow("my-local-model", { "my-local": 4096 })).toBe(4096);
  });
});
