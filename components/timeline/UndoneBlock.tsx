"use client";
import { formatTime } from "@/components/format";
import type { CompactionView, UndoneMark } from "@/lib/views";
import { dataAttributes } from "../ui/data-attributes";
import { blockRange, blockTitle } from "./block-title";
import { CompactionSummary } from "./CompactionSummary";

const KIND_LABEL: Record<CompactionView["kind"], string> = { summary: "Summary", truncation: "Truncation", clearing: "Clearing" };

/**
 * A compaction its owner undid. It stays in the tree, marked undone, standing above the
 * messages it gave back (they follow it in the timeline, in the model's view again); it
 * opens onto nothing, since it holds nothing now, but its text can still be read.
 */
export function UndoneBlock({ compaction, undone }: { compaction: CompactionView; undone: UndoneMark }) {
  const title = blockTitle(compaction);
  return (
    <section
      data-testid="undone-block"
      {...dataAttributes({ id: compaction.id, level: compaction.level, kind: compaction.kind })}
      aria-label={`Undone level ${compaction.level} ${compaction.kind} of messages ${compaction.fromSeq} to ${compaction.toSeq}: ${title}`}
      className="my-1 min-w-0 rounded-md border border-dashed border-neutral-300 px-2.5 py-1.5 text-[11.5px] text-neutral-600 dark:border-neutral-700 dark:text-neutral-400"
    >
      <div className="flex min-w-0 items-center gap-2">
        <span data-testid="undone-badge" className="shrink-0 rounded bg-amber-100 px-1.5 py-px text-[10.5px] font-bold text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          undone
        </span>
        <span className="shrink-0 text-neutral-500">L{compaction.level}</span>
        <span data-testid="undone-title" className="min-w-0 flex-1 truncate font-medium text-neutral-700 line-through decoration-neutral-400 dark:text-neutral-300">
          {title}
        </span>
        <span className="shrink-0 font-mono tabular-nums">{blockRange(compaction)}</span>
      </div>
      <div className="flex min-w-0 flex-wrap items-center gap-x-2 pl-1">
        <span data-testid="undone-meta" className="min-w-0">
          {KIND_LABEL[compaction.kind]} undone by {undone.by} · <time dateTime={undone.at}>{formatTime(undone.at)}</time> · what it replaced is below, in
          the model&apos;s view again
        </span>
      </div>
      {compaction.kind === "clearing" ? null : (
        <div className="mt-0.5 pl-1 opacity-90">
          <CompactionSummary compaction={compaction} />
        </div>
      )}
    </section>
  );
}
