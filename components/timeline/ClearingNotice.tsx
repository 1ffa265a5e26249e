"use client";
import { formatCount } from "@/components/format";
import type { CompactionView } from "@/lib/views";
import { dataAttributes } from "../ui/data-attributes";
import { blockRange } from "./block-title";
import { UndoCompaction } from "./UndoCompaction";

/**
 * Old tool output cleared from the model's view. A thin notice, not a block: nothing is
 * hidden from people, the cleared results stay in the timeline right below it, whole
 * (the model reads them again with open_history).
 */
export function ClearingNotice({ compaction }: { compaction: CompactionView }) {
  return (
    <div
      role="note"
      data-testid="clearing-notice"
      {...dataAttributes({ id: compaction.id, kind: compaction.kind, trigger: compaction.trigger })}
      title={compaction.summary}
      className="my-1 flex min-w-0 flex-wrap items-center gap-2 border-y border-dashed border-neutral-300 px-2 py-1 text-[11.5px] text-neutral-600 dark:border-neutral-700 dark:text-neutral-400"
    >
      <span className="min-w-0 flex-1 truncate">
        {compaction.title ?? "Old tool output cleared"} from the model&apos;s view · {formatCount(compaction.tokensBefore)} →{" "}
        {formatCount(compaction.tokensAfter)} tokens · calls kept, results below stay whole here
      </span>
      <span className="shrink-0 font-mono tabular-nums">{blockRange(compaction)}</span>
      <UndoCompaction compaction={compaction} />
    </div>
  );
}
