"use client";
import { memo } from "react";
import { useCompactionTree } from "@/components/stores/compaction-tree-store";
import { formatCount, formatDuration, formatTime, plural, strategyLabel, triggerLabel, writtenByUser } from "@/components/format";
import type { CompactionView } from "@/lib/views";
import { ChevronIcon } from "../ui/icons";
import { dataAttributes } from "../ui/data-attributes";
import { CompactionChildren } from "./CompactionChildren";
import { CompactionSummary } from "./CompactionSummary";
import { ContinueFromSummary } from "./ContinueFromSummary";
import { levelStyle } from "./levels";

function openLabel(compaction: CompactionView): string {
  if (compaction.level >= 2 && compaction.childCount > 0) return `${plural(compaction.childCount, "summary", "summaries")} inside`;
  return `show ${plural(compaction.coveredMessageCount, "original message")}`;
}

/** A compaction standing where its messages were; opens onto what it replaced. */
export const CompactionBlock = memo(function CompactionBlock({ compaction }: { compaction: CompactionView }) {
  const expanded = useCompactionTree((state) => state.expanded[compaction.id] ?? false);
  const toggle = useCompactionTree((state) => state.toggle);
  const style = levelStyle(compaction.level);
  const childrenId = `compaction-children-${compaction.id}`;

  return (
    <section
      data-testid="compaction-block"
      {...dataAttributes({ id: compaction.id, level: compaction.level, kind: compaction.kind, trigger: compaction.trigger, expanded })}
      aria-label={`Level ${compaction.level} ${compaction.kind} of messages ${compaction.fromSeq} to ${compaction.toSeq}`}
      className={`rounded-lg border border-l-[3px] border-neutral-200 bg-neutral-50/70 dark:border-neutral-800 dark:bg-neutral-900/50 ${style.edge}`}
    >
      <header className="flex flex-wrap items-center gap-x-2 gap-y-0.5 px-3 pt-2 text-[11.5px]">
        <button
          type="button"
          data-testid="compaction-toggle"
          aria-expanded={expanded}
          aria-controls={childrenId}
          onClick={() => toggle(compaction.id)}
          className="-ml-1 flex items-center gap-1.5 rounded px-1 py-0.5 font-semibold text-neutral-800 hover:bg-neutral-200/70 dark:text-neutral-200 dark:hover:bg-neutral-800"
        >
          <ChevronIcon className={`size-3 transition-transform ${expanded ? "rotate-90" : ""}`} />
          <span className={`rounded px-1.5 py-px text-[10.5px] font-bold ${style.badge}`} data-testid="compaction-level">
            L{compaction.level}
          </span>
          <span>{compaction.kind === "truncation" ? "Truncation" : "Summary"}</span>
          <span className="font-normal text-neutral-600 dark:text-neutral-400">{expanded ? "hide originals" : openLabel(compaction)}</span>
        </button>
        <span className="rounded border border-neutral-300 px-1 py-px text-[10.5px] text-neutral-600 dark:border-neutral-700 dark:text-neutral-400">
          {triggerLabel(compaction.trigger)}
        </span>
        <span data-testid="compaction-stats" className="font-mono text-neutral-600 tabular-nums dark:text-neutral-400">
          {plural(compaction.coveredMessageCount, "message")} · {formatCount(compaction.coveredTokens)} → {formatCount(compaction.summaryTokens)} tokens
        </span>
        <span className="ml-auto flex items-center gap-1.5 text-neutral-500">
          <span data-testid="compaction-source">{strategyLabel(compaction)}</span>
          {compaction.summaryModel ? <span className="font-mono">{compaction.summaryModel}</span> : null}
          <span>·</span>
          <span className="font-mono">#{compaction.fromSeq}–{compaction.toSeq}</span>
          <span>·</span>
          <time dateTime={compaction.createdAt}>{formatTime(compaction.createdAt)}</time>
          {writtenByUser(compaction) ? null : <span>· {formatDuration(compaction.durationMs)}</span>}
          {compaction.background ? <span>· background</span> : null}
        </span>
      </header>
      <div className="px-3 pt-1 pb-2.5">
        {expanded ? (
          <CompactionChildren compaction={compaction} id={childrenId} />
        ) : (
          <CompactionSummary compaction={compaction} />
        )}
        <div className="mt-1.5 flex flex-wrap items-center gap-2 text-[11.5px]">
          <ContinueFromSummary compactionId={compaction.id} />
        </div>
      </div>
    </section>
  );
});
