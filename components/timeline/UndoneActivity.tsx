"use client";
import { formatTime } from "@/components/format";
import type { UndoneView } from "@/lib/views";
import { blockRange } from "./block-title";

/** The Activity panel's record of undone compactions: who undid which, and when. */
export function UndoneActivity({ undone }: { undone: UndoneView[] }) {
  if (undone.length === 0) return null;
  return (
    <section aria-labelledby="undone-activity-heading" className="border-b border-neutral-200 dark:border-neutral-800">
      <h3 id="undone-activity-heading" className="px-3 pt-2 text-[11px] font-semibold tracking-wide text-neutral-500 uppercase">
        Undone
      </h3>
      <ul className="divide-y divide-neutral-200 dark:divide-neutral-800">
        {undone.map((entry) => (
          <li key={entry.compactionId} data-testid="undone-activity" data-id={entry.compactionId} className="space-y-0.5 px-3 py-2 text-[12px]">
            <div className="flex items-center gap-1.5 text-[11.5px]">
              <span className="rounded bg-amber-100 px-1.5 py-px font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-200">undone</span>
              <span className="text-neutral-600 dark:text-neutral-400">
                L{entry.level} {entry.kind} · {blockRange(entry)}
              </span>
              <time className="ml-auto text-neutral-500" dateTime={entry.at}>
                {formatTime(entry.at)}
              </time>
            </div>
            <p className="leading-snug text-neutral-700 dark:text-neutral-300">
              {entry.title ? `“${entry.title}” ` : ""}undone by {entry.by}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
