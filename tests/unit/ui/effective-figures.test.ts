// The settings page and the context meter show the figures the engine really uses for a
// model's window, and say which settings it had to change (a reserve of 4,096 tokens
// cannot work at 8k: the hard limit would sit below the thresholds).
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { formatAdjustment, MeterDetails } from "../../../components/chat/ContextMeter";
import { EffectiveFigures, MAX_FIGURE_ROWS } from "../../../components/settings/EffectiveFigures";
import { contextBudget } from "../../../lib/compression/budget";
import { DEFAULT_SETTINGS } from "../../../lib/compression/settings";
import type { ContextMeterView } from "../../../lib/views";

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&gt;/g, ">").replace(/\s+/g, " ");
const settings = { ...DEFAULT_SETTINGS, contextWindowOverrides: { "LLAMA3.1": 8192 } };

/** The row of one model in the effective-figures table, as text. */
function rowOf(html: string, model: string): string {
  const row = html.split("<tr").find((r) => r.includes(`>${model}<`));
  expect(row, `row of ${model}`).toBeDefined();
  return text(`<tr${row!}`);
}

describe("EffectiveFigures", () => {
  it("shows each model's effective hard limit, with the reserve clamped at 8k and left alone at 128k", () => {
    const html = renderToStaticMarkup(createElement(EffectiveFigures, { settings, models: ["llama3.1:8b", "gpt-4o"], overheadTokens: { plain: 0, withHistoryTools: 0 } }));
    const small = contextBudget(8192, DEFAULT_SETTINGS, 0);
    // The override is found by the same lookup the engine uses (case-insensitive prefix).
    const llama = rowOf(html, "llama3.1:8b");
    expect(llama).toContain("8,192");
    expect(llama).toContain(small.hardLimit.toLocaleString("en-US"));
    expect(llama).toMatch(/hardLimitReserve: 4,096 → 1,228 \(.*15% of a 8,192-token window/);
    const gpt = rowOf(html, "gpt-4o");
    expect(gpt).toContain((128_000 - DEFAULT_SETTINGS.hardLimitReserve).toLocaleString("en-US"));
    expect(gpt).not.toContain("hardLimitReserve");
  });

  it("sizes each window with the tools a compressed conversation offers there (no history tools below 8k with `both`)", () => {
    const overheadTokens = { plain: 0, withHistoryTools: 1500 };
    const windows = { ...DEFAULT_SETTINGS, contextWindowOverrides: { small: 3000, large: 8192 } };
    const html = renderToStaticMarkup(createElement(EffectiveFigures, { settings: windows, models: ["small", "large"], overheadTokens }));
    const longest = (window: number, base: number) => contextBudget(window, DEFAULT_SETTINGS, base).summaryMaxTokens.toLocaleString("en-US");
    // The figures differ with the overhead, so the rows say which one each window was sized with.
    expect(longest(8192, 1500)).not.toBe(longest(8192, 0));
    expect(longest(3000, 1500)).not.toBe(longest(3000, 0));
    expect(rowOf(html, "large")).toContain(longest(8192, 1500));
    expect(rowOf(html, "small")).toContain(longest(3000, 0));
  });
});

describe("the context meter's details", () => {
  it("list the settings the engine changed for this window, with the effective hard limit", () => {
    const budget = contextBudget(8192, DEFAULT_SETTINGS, 0);
    const meter: ContextMeterView = {
      systemTokens: 20, summaryTokens: 0, messageTokens: 980, toolTokens: 0, correctionTokens: 0, totalTokens: 1000,
      contextWindow: 8192, model: "llama3:8b", ratio: 1000 / 8192, calibration: { source: "reported", factor: 1 },
      threshold: budget.threshold, preemptiveThreshold: budget.preemptiveThreshold, hardLimit: budget.hardLimit,
      preemptiveLatest: budget.preemptiveLatestTokens / 8192,
      reserve: budget.reserve, summaryMaxTokens: budget.summaryMaxTokens, adjustments: budget.adjustments,
    };
    const shown = text(renderToStaticMarkup(createElement(MeterDetails, { meter, id: "m" })));
    expect(shown).toContain(`Hard limit (window − 1,228 for the reply) ${budget.hardLimit.toLocaleString("en-US")} tokens`);
    expect(shown).toMatch(/hardLimitReserve 4,096 → 1,228: .*15% of a 8,192-token window/);
    const untouched = text(renderToStaticMarkup(createElement(MeterDetails, { meter: { ...meter, adjustments: [] }, id: "m" })));
    expect(untouched).not.toContain("hardLimitReserve");
    // Defaults: pre-emptive at 65%, and a compaction that would free little waits until 70% (80% less 10 points).
    expect(shown).toMatch(/Pre-emptive \(background\) at or later, up to 70%, while it would free little 65%/);
    const fixed = text(renderToStaticMarkup(createElement(MeterDetails, { meter: { ...meter, preemptiveLatest: meter.preemptiveThreshold }, id: "m" })));
    expect(fixed).not.toContain("while it would free little");
  });
});

describe("EffectiveFigures with many models", () => {
  it(`shows the first ${MAX_FIGURE_ROWS} and says how many there are`, () => {
    const models = Array.from({ length: 200 }, (_, index) => `local-${index}`);
    const html = renderToStaticMarkup(createElement(EffectiveFigures, { settings: DEFAULT_SETTINGS, models, overheadTokens: { plain: 0, withHistoryTools: 0 } }));
    expect(html.split("<tr").length - 2).toBe(MAX_FIGURE_ROWS);
    expect(html).toContain(`The first ${MAX_FIGURE_ROWS} of 200 models.`);
  });
});

describe("an adjusted setting, in words", () => {
  it("never reads the same on both sides of the arrow", () => {
    expect(formatAdjustment({ setting: "threshold", configured: 0.9, effective: 0.8 })).toBe("90% → 80%");
    expect(formatAdjustment({ setting: "threshold", configured: 0.8, effective: 0.797 })).toBe("80.0% → 79.7%");
    expect(formatAdjustment({ setting: "hardLimitReserve", configured: 4096, effective: 1228 })).toBe("4,096 → 1,228");
  });
});
