"use client";
import { contextBudget } from "@/lib/compression/budget";
import { recallByTools, type CompressionSettings } from "@/lib/compression/settings";
import type { OverheadTokens } from "@/lib/chat/tool-set";
import { formatCount, formatPercent } from "@/components/format";
import { contextWindow } from "@/lib/llm/models";
import { formatAdjustment } from "../chat/ContextMeter";

/**
 * What the settings being edited come to for each model: the engine clamps what
 * cannot work at a model's window, and says so here before anything is saved.
 */
// A row per model is worked out on every keystroke: enough rows to compare windows, not
// one per override of a long list.
export const MAX_FIGURE_ROWS = 20;

export function EffectiveFigures({ settings, models, overheadTokens }: { settings: CompressionSettings | null; models: string[]; overheadTokens: OverheadTokens }) {
  if (!settings || models.length === 0) return null;
  const rows = models.slice(0, MAX_FIGURE_ROWS).map((model) => {
    const window = contextWindow(model, settings.contextWindowOverrides);
    // As a compressed conversation is sized: with the history tools where they are offered.
    const overhead = recallByTools(settings, window) ? overheadTokens.withHistoryTools : overheadTokens.plain;
    return { model, budget: contextBudget(window, settings, overhead) };
  });
  return (
    <section aria-labelledby="effective-heading" data-testid="effective-figures" className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
      <h2 id="effective-heading" className="text-[13px] font-semibold">
        What these settings come to per model
      </h2>
      <p className="mt-1 text-[12px] text-neutral-500">
        Figures the engine uses for each window; values it had to change are listed with the reason.
        {models.length > MAX_FIGURE_ROWS ? ` The first ${MAX_FIGURE_ROWS} of ${models.length} models.` : null}
      </p>
      {/* Focusable: the table may scroll sideways on a phone, and the keyboard must reach it. */}
      <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label="Effective figures by context window">
        <table className="w-full text-left text-[12px]">
          <thead className="text-neutral-500">
            <tr>
              <th className="py-1 pr-3 font-medium">Model</th>
              <th className="py-1 pr-3 font-medium">Window</th>
              <th className="py-1 pr-3 font-medium">Pre-emptive / auto</th>
              <th className="py-1 pr-3 font-medium">Hard limit</th>
              <th className="py-1 pr-3 font-medium">Longest summary</th>
            </tr>
          </thead>
          <tbody className="font-mono tabular-nums">
            {rows.map(({ model, budget }) => (
              <tr key={model} className="border-t border-neutral-200 align-top dark:border-neutral-800">
                <td className="py-1 pr-3">{model}</td>
                <td className="py-1 pr-3">{formatCount(budget.contextWindow)}</td>
                <td className="py-1 pr-3">
                  {budget.preemptiveThreshold > 0 ? formatPercent(budget.preemptiveThreshold) : "off"} / {formatPercent(budget.threshold)}
                </td>
                <td className="py-1 pr-3">{formatCount(budget.hardLimit)}</td>
                <td className="py-1 pr-3">
                  {formatCount(budget.summaryMaxTokens)}
                  {budget.adjustments.length > 0 ? (
                    <ul className="mt-1 font-sans text-[11.5px] text-amber-700 dark:text-amber-400">
                      {budget.adjustments.map((a) => (
                        <li key={a.setting}>
                          {a.setting}: {formatAdjustment(a)} ({a.reason})
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
