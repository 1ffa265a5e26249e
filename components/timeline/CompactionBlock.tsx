"use client";
import { memo } from "react";
import { useCompactionTree } from "@/components/stores/compaction-tree-store";
import { formatCount, formatDuration, formatTime, plural, strategyLabel, triggerLabel, writtenByUser } from "@/components/format";
import type { CompactionView } from "@/lib/views";
import { ChevronIcon } from "../ui/icons";
import { dataAttributes } from "../ui/data-attributes";
import { blockLabel, blockRange, blockTitle, openLabel } from "./block-title";
import { CompactionChildren } from "./CompactionChildren";
import { CompactionCost } from "./CompactionCost";
import { CompactionSummary } from "./CompactionSummary";
import { ContinueFromSummary } from "./ContinueFromSummary";
import { levelStyle } from "./levels";
import { PinnedStrip } from "./PinnedStrip";
import { UndoCompaction } from "./UndoCompaction";
import { blockFrame } from "./tree-layout";
import { useReadOnly } from "./read-only";

const NO_ANCESTORS: CompactionView[] = [];

function Stats({ compaction }: { compaction: CompactionView }) {
  return (
    <span data-testid="compaction-stats" className="min-w-0 truncate font-mono tabular-nums">
      {plural(compaction.coveredMessageCount, "message")} · {formatCount(compaction.coveredTokens)} → {formatCount(compaction.summaryTokens)} tokens
    </span>
  );
}

/** A summary the model no longer reads whole: its request carries the summary's one-line stand-in instead. */
function OutOfView() {
  return (
    <span
      data-testid="compaction-out-of-view"
      title="The summaries in view outgrew their room, so the model now gets this one as a single line (its range, title and specifics) instead of the whole summary. It stays here, in search and within the model's reach (open_history)."
      className="shrink-0 rounded border border-amber-400 px-1 py-px text-[10.5px] text-amber-800 dark:border-amber-600 dark:text-amber-300"
    >
      model sees one line
    </span>
  );
}

/** How and when it was made. */
function Provenance({ compaction }: { compaction: CompactionView }) {
  return (
    <span className="min-w-0 truncate text-neutral-500" title={compaction.summaryModel ?? undefined}>
      <span data-testid="compaction-source">{strategyLabel(compaction)}</span>
      {compaction.summaryModel ? ` · ${compaction.summaryModel}` : ""} · <time dateTime={compaction.createdAt}>{formatTime(compaction.createdAt)}</time>
      {writtenByUser(compaction) ? null : ` · ${formatDuration(compaction.durationMs)}`}
      {compaction.background ? " · background" : ""}
    </span>
  );
}

// Only the first levels indent; deeper blocks are flat bands, so an original message at
// any depth keeps nearly the timeline's width (the path bar says where it sits).
const FRAMES = {
  card: "rounded-lg border border-l-[3px] border-neutral-200 bg-neutral-50/70 dark:border-neutral-800 dark:bg-neutral-900/50",
  "nested-card": "rounded-md border border-l-[3px] border-neutral-200 bg-white/60 dark:border-neutral-800 dark:bg-neutral-950/40",
  flat: "border-t-2 bg-transparent",
} as const;

/** A compaction standing where its messages were; opens onto what it replaced. `ancestors`: the open blocks it sits in, outermost first. */
export const CompactionBlock = memo(function CompactionBlock({
  compaction,
  ancestors = NO_ANCESTORS,
}: {
  compaction: CompactionView;
  ancestors?: CompactionView[];
}) {
  const expanded = useCompactionTree((state) => state.expanded[compaction.id] ?? false);
  const toggle = useCompactionTree((state) => state.toggle);
  const readOnly = useReadOnly();
  const style = levelStyle(compaction.level);
  const childrenId = `compaction-children-${compaction.id}`;
  const frame = blockFrame(ancestors.length);
  const pad = frame === "flat" ? "px-0" : frame === "nested-card" ? "px-2" : "px-3";
  const title = blockTitle(compaction);
  const label = blockLabel(compaction);

  return (
    <section
      data-testid="compaction-block"
      {...dataAttributes({ id: compaction.id, level: compaction.level, kind: compaction.kind, trigger: compaction.trigger, expanded, depth: ancestors.length })}
      aria-label={`Level ${compaction.level} ${compaction.kind} of messages ${compaction.fromSeq} to ${compaction.toSeq}: ${title}`}
      className={`min-w-0 ${FRAMES[frame]} ${frame === "flat" ? style.rail : style.edge}`}
    >
      <header data-testid="compaction-header" className={`min-w-0 overflow-hidden ${pad} pt-2 text-[11.5px]`}>
        <div className="flex min-w-0 items-center gap-2">
          <button
            type="button"
            data-testid="compaction-toggle"
            aria-expanded={expanded}
            aria-controls={childrenId}
            title={`${label} — ${expanded ? "hide what it replaced" : openLabel(compaction)}`}
            onClick={() => toggle(compaction.id)}
            className="-ml-1 flex min-w-0 flex-1 items-center gap-1.5 rounded px-1 py-0.5 text-left text-neutral-800 hover:bg-neutral-200/70 dark:text-neutral-200 dark:hover:bg-neutral-800"
          >
            <ChevronIcon className={`size-3 shrink-0 transition-transform ${expanded ? "rotate-90" : ""}`} />
            <span className={`shrink-0 rounded px-1.5 py-px text-[10.5px] font-bold ${style.badge}`} data-testid="compaction-level">
              L{compaction.level}
            </span>
            <span data-testid="compaction-title" className="min-w-0 flex-1 truncate text-[12.5px] font-semibold">
              {title}
            </span>
          </button>
          <span data-testid="compaction-range" className="shrink-0 font-mono text-neutral-600 tabular-nums dark:text-neutral-400">
            {blockRange(compaction)}
          </span>
        </div>
        {ancestors.length === 0 ? (
          <div data-testid="compaction-meta" className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 pl-5 text-neutral-600 dark:text-neutral-400">
            <span className="min-w-0 truncate">
              {compaction.kind === "truncation" ? "Truncation" : "Summary"} · {expanded ? "hide originals" : openLabel(compaction)}
            </span>
            <span className="shrink-0 rounded border border-neutral-300 px-1 py-px text-[10.5px] dark:border-neutral-700">
              {triggerLabel(compaction.trigger)}
            </span>
            {compaction.outOfView != null ? <OutOfView /> : null}
            <Stats compaction={compaction} />
            <Provenance compaction={compaction} />
            {readOnly ? null : <CompactionCost compactionId={compaction.id} />}
          </div>
        ) : (
          // Nested headers keep to one line: a path 22 levels deep stays readable on a phone.
          <div data-testid="compaction-meta" className="flex min-w-0 items-center gap-x-2 overflow-hidden pl-5 whitespace-nowrap text-neutral-600 dark:text-neutral-400">
            <Stats compaction={compaction} />
            <span className="hidden min-w-0 sm:contents">
              <Provenance compaction={compaction} />
            </span>
          </div>
        )}
      </header>
      {ancestors.length === 0 ? <PinnedStrip compaction={compaction} /> : null}
      <div className={`${pad} pt-1 pb-2.5`}>
        {expanded ? (
          <CompactionChildren compaction={compaction} ancestors={ancestors} id={childrenId} />
        ) : (
          <CompactionSummary compaction={compaction} />
        )}
        {readOnly ? null : (
          <div className="mt-1.5 flex flex-wrap items-center gap-2 text-[11.5px]">
            <ContinueFromSummary compactionId={compaction.id} />
            {ancestors.length === 0 ? <UndoCompaction compaction={compaction} /> : null}
          </div>
        )}
      </div>
    </section>
  );
});
