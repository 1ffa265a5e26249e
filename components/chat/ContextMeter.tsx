"use client";
import { useId } from "react";
import { useChat } from "@/components/stores/chat-store";
import { useMeter } from "@/components/queries/conversation-data";
import { formatCount, formatPercent } from "@/components/format";
import type { ContextMeterView } from "@/lib/views";
import { popoverContainerProps, popoverProps, popoverTriggerProps, useHoverPopover } from "../ui/hover-popover";
import { PHONE_MENU_ROW } from "./HeaderLabel";

const SEGMENTS = [
  { key: "systemTokens", label: "System prompt", color: "bg-neutral-500 dark:bg-neutral-400" },
  { key: "toolTokens", label: "Tool definitions", color: "bg-neutral-400 dark:bg-neutral-500" },
  { key: "summaryTokens", label: "Summaries", color: "bg-violet-500 dark:bg-violet-400" },
  { key: "messageTokens", label: "Recent messages", color: "bg-sky-500 dark:bg-sky-400" },
] as const;

const CORRECTION_COLOR = "bg-sky-300/70 dark:bg-sky-700/70";

const isShare = (setting: string) => setting === "threshold" || setting === "preemptiveThreshold";

/** Thresholds are shares of the window, the rest token counts. */
export function formatSetting(setting: string, value: number): string {
  return isShare(setting) ? formatPercent(value) : formatCount(value);
}

/** "configured → effective", with a decimal where whole percents would read the same on both sides. */
export function formatAdjustment({ setting, configured, effective }: { setting: string; configured: number; effective: number }): string {
  const [from, to] = [formatSetting(setting, configured), formatSetting(setting, effective)];
  if (from !== to || !isShare(setting)) return `${from} → ${to}`;
  return `${(configured * 100).toFixed(1)}% → ${(effective * 100).toFixed(1)}%`;
}

/**
 * The meter measures the conversation as stored; a request larger than the hard limit is
 * cut before it is sent (an oversized message shortened, the oldest entries dropped). So
 * past the hard limit the figure is not what the model saw, and "512%" would read as an
 * error: the meter says "cut" instead.
 */
export function requestCut(meter: Pick<ContextMeterView, "totalTokens" | "hardLimit">): boolean {
  return meter.totalTokens > meter.hardLimit;
}

/** What the red "cut" means, in words: the popover's first line and the meter's accessible name. */
export function cutExplanation(meter: Pick<ContextMeterView, "totalTokens" | "hardLimit" | "contextWindow">): string {
  return (
    `Cut: the conversation needs ${formatCount(meter.totalTokens)} tokens, more than the hard limit of ${formatCount(meter.hardLimit)} ` +
    `(the ${formatCount(meter.contextWindow)}-token window minus room for the reply): a request is compressed first, and what still does not fit is cut to ` +
    `${formatCount(meter.hardLimit)} tokens before it goes to the model (the oldest messages leave its view, oversized ones are shortened). ` +
    "Nothing stored is lost."
  );
}

function share(tokens: number, window: number): number {
  return window > 0 ? Math.max(0, Math.min(100, (tokens / window) * 100)) : 0;
}

function MeterBar({ meter }: { meter: ContextMeterView }) {
  return (
    // In the phone menu's row the bar takes the room its words leave.
    <div className="relative h-2 w-24 overflow-visible rounded-full bg-neutral-200 max-lg:w-auto max-lg:flex-1 xl:w-36 dark:bg-neutral-800">
      <div className="flex h-full overflow-hidden rounded-full">
        {SEGMENTS.map((segment) => (
          <div key={segment.key} className={segment.color} style={{ width: `${share(meter[segment.key], meter.contextWindow)}%` }} />
        ))}
        {meter.correctionTokens > 0 ? (
          <div className={CORRECTION_COLOR} style={{ width: `${share(meter.correctionTokens, meter.contextWindow)}%` }} />
        ) : null}
      </div>
      {meter.preemptiveThreshold > 0 ? (
        <span
          aria-hidden="true"
          className="absolute -top-0.5 h-3 w-px bg-amber-500"
          style={{ left: `${meter.preemptiveThreshold * 100}%` }}
        />
      ) : null}
      <span aria-hidden="true" className="absolute -top-1 h-4 w-0.5 rounded bg-red-500" style={{ left: `${meter.threshold * 100}%` }} />
    </div>
  );
}

/** Exported for its test: the figures the engine works with, and any setting it had to change. */
export function MeterDetails({ meter, id }: { meter: ContextMeterView; id: string }) {
  const rows: [string, string, string | null][] = SEGMENTS.map((segment) => [
    segment.label,
    formatCount(meter[segment.key]),
    segment.color,
  ]);
  if (meter.correctionTokens !== 0) {
    const label = meter.calibration.source === "reported" ? "Server's count vs ours" : "Safety margin (no usage reported yet)";
    rows.push([label, formatCount(meter.correctionTokens), meter.correctionTokens > 0 ? CORRECTION_COLOR : null]);
  }
  return (
    // With a cut request and every setting adjusted the details are taller than a phone:
    // they end above the screen's bottom (7rem: the header and, on a phone, the menu row
    // above them) and scroll inside.
    <div
      id={id}
      {...popoverProps}
      role="tooltip"
      data-testid="context-meter-details"
      className="absolute top-full right-0 z-30 mt-2 max-h-[calc(100dvh-7rem)] w-72 max-w-[calc(100vw-1rem)] overflow-y-auto overscroll-contain rounded-lg border border-neutral-200 bg-white p-3 text-[12px] shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
    >
      <p className="mb-2 font-semibold">
        {formatCount(meter.totalTokens)} of {formatCount(meter.contextWindow)} tokens ({formatPercent(meter.ratio)})
      </p>
      {requestCut(meter) ? (
        <p data-testid="context-meter-cut" className="mb-2 text-red-700 dark:text-red-400">
          {cutExplanation(meter)}
        </p>
      ) : null}
      <dl className="space-y-1">
        {rows.map(([label, value, color]) => (
          <div key={label} className="flex items-center gap-2">
            <span className={`size-2 rounded-sm ${color ?? "bg-transparent"}`} />
            <dt className="flex-1 text-neutral-600 dark:text-neutral-400">{label}</dt>
            <dd className="font-mono tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <dl className="mt-2 space-y-1 border-t border-neutral-200 pt-2 dark:border-neutral-800">
        {meter.preemptiveThreshold > 0 ? (
          <div className="flex gap-2">
            <span className="mt-1 h-2 w-px bg-amber-500" />
            <dt className="flex-1 text-neutral-600 dark:text-neutral-400">
              Pre-emptive (background) at
              {meter.preemptiveLatest > meter.preemptiveThreshold ? (
                <span className="block text-[11px]">or later, up to {formatPercent(meter.preemptiveLatest)}, while it would free little</span>
              ) : null}
            </dt>
            <dd className="font-mono tabular-nums">{formatPercent(meter.preemptiveThreshold)}</dd>
          </div>
        ) : null}
        <div className="flex gap-2">
          <span className="mt-1 h-2 w-0.5 bg-red-500" />
          <dt className="flex-1 text-neutral-600 dark:text-neutral-400">Auto compression at</dt>
          <dd className="font-mono tabular-nums">{formatPercent(meter.threshold)}</dd>
        </div>
        <div className="flex gap-2">
          <span className="w-0.5" />
          <dt className="flex-1 text-neutral-600 dark:text-neutral-400">Hard limit (window − {formatCount(meter.reserve)} for the reply)</dt>
          <dd className="font-mono tabular-nums">{formatCount(meter.hardLimit)} tokens</dd>
        </div>
        <div className="flex gap-2">
          <span className="w-0.5" />
          <dt className="flex-1 text-neutral-600 dark:text-neutral-400">Longest summary</dt>
          <dd className="font-mono tabular-nums">{formatCount(meter.summaryMaxTokens)} tokens</dd>
        </div>
      </dl>
      {meter.adjustments.length > 0 ? (
        <ul data-testid="context-meter-adjustments" className="mt-2 space-y-1 border-t border-neutral-200 pt-2 text-neutral-600 dark:border-neutral-800 dark:text-neutral-400">
          {meter.adjustments.map((adjustment) => (
            <li key={adjustment.setting}>
              <span className="font-mono">{adjustment.setting}</span> {formatAdjustment(adjustment)}: {adjustment.reason}.
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The meter's figure as the header shows it: the percent (or "cut"), its colour, and its words for a screen reader. */
function meterFigure(meter: ContextMeterView) {
  const percent = Math.round(meter.ratio * 100);
  const cut = requestCut(meter);
  const tone = cut || meter.ratio >= meter.threshold ? "text-red-600 dark:text-red-400" : "text-neutral-600 dark:text-neutral-400";
  const summary = `${formatCount(meter.totalTokens)} of ${formatCount(meter.contextWindow)} tokens`;
  return { percent, cut, tone, label: cut ? "cut" : `${percent}%`, words: cut ? `cut, over the limit (${percent}%)` : `${percent}% full: ${summary}` };
}

/**
 * Below 1024 px the meter is a row of the header's menu; the figure stays in sight beside
 * the menu's button (it is the one control a long conversation is watched by), and a tap
 * on it opens the menu with the meter in it.
 */
export function MeterFigure() {
  const meter = useMeter(useChat((state) => state.conversationId));
  if (!meter) return null;
  const { percent, tone, label } = meterFigure(meter);
  return (
    <span data-testid="context-meter-figure" data-percent={percent} aria-hidden="true" className={`font-mono text-[11.5px] tabular-nums ${tone}`}>
      {label}
    </span>
  );
}

/** The accessible name of the header menu's button, with the figure beside it. */
export function useMeterWords(): string | null {
  const meter = useMeter(useChat((state) => state.conversationId));
  return meter ? `context ${meterFigure(meter).words}` : null;
}

export function ContextMeter() {
  const meter = useMeter(useChat((state) => state.conversationId));
  const { open, send } = useHoverPopover();
  const detailsId = useId();
  if (!meter) return null;
  const { percent, cut, tone, label, words } = meterFigure(meter);
  return (
    <div className="relative" {...popoverContainerProps(send)}>
      <button
        type="button"
        data-testid="context-meter"
        data-percent={percent}
        data-cut={cut}
        aria-label={cut ? `Context ${words}. ${cutExplanation(meter)}` : `Context ${words}`}
        {...popoverTriggerProps(open, send, detailsId)}
        className={`flex h-7 items-center gap-2 rounded-md px-2 hover:bg-neutral-100 dark:hover:bg-neutral-800 ${PHONE_MENU_ROW}`}
      >
        {/* Among the phone menu's rows the bar alone would not say what it measures. */}
        <span className="lg:hidden">Context</span>
        <MeterBar meter={meter} />
        <span data-testid="context-meter-label" className={`w-9 text-right font-mono text-[11.5px] tabular-nums ${tone}`}>
          {label}
        </span>
      </button>
      {open ? <MeterDetails meter={meter} id={detailsId} /> : null}
    </div>
  );
}
