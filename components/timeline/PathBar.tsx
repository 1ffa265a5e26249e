"use client";
import { useCompactionTree } from "@/components/stores/compaction-tree-store";
import type { CompactionView } from "@/lib/views";
import { blockLabel, blockRange } from "./block-title";
import { pathCrumbs } from "./tree-layout";

/** Brings a block's header on screen once the collapse has rendered. */
function showBlock(id: string) {
  requestAnimationFrame(() => {
    document.querySelector(`[data-testid="compaction-block"][data-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "start" });
  });
}

/**
 * Where an opened block sits: All › L22 #1–#760 › … › L3 #1–#105 › L2 #1–#70. A crumb
 * takes the reader back up: it closes the level below it and shows its header.
 */
export function PathBar({ path }: { path: CompactionView[] }) {
  const collapse = useCompactionTree((state) => state.collapse);
  const crumbs = pathCrumbs(path);
  const up = (index: number) => {
    // "All" closes the top-level block; a crumb closes the level below it.
    const closing = path[index + 1];
    if (!closing) return;
    collapse(closing.id);
    showBlock(path[Math.max(0, index)]!.id);
  };
  const crumbClass = "min-w-0 shrink truncate rounded px-1 hover:bg-neutral-200/70 hover:text-neutral-900 dark:hover:bg-neutral-800 dark:hover:text-neutral-100";

  return (
    <nav aria-label="Where this block sits" data-testid="path-bar" className="min-w-0 overflow-hidden py-0.5 text-[11px] text-neutral-600 dark:text-neutral-400">
      <ol className="flex min-w-0 items-center gap-0.5 whitespace-nowrap">
        {crumbs.map((crumb, position) => {
          const separator = position > 0 ? <span aria-hidden className="shrink-0 text-neutral-400">›</span> : null;
          if (crumb.kind === "all")
            return (
              <li key="all" className="flex shrink-0 items-center">
                <button type="button" data-testid="path-crumb" className={crumbClass} title="Close this tree back to the timeline" onClick={() => up(-1)}>
                  All
                </button>
              </li>
            );
          if (crumb.kind === "gap")
            return (
              <li key="gap" className="flex shrink-0 items-center gap-0.5" title={crumb.hidden.map((block) => blockLabel(block)).join("\n")}>
                {separator}
                <span aria-label={`${crumb.hidden.length} levels between`}>…</span>
              </li>
            );
          const last = crumb.index === path.length - 1;
          // On a phone the crumbs above this block name their level only (the range is in the title).
          const text = (
            <>
              L{crumb.block.level}
              <span className={last ? "" : "hidden sm:inline"}> {blockRange(crumb.block)}</span>
            </>
          );
          return (
            <li key={crumb.block.id} className={`flex min-w-0 items-center gap-0.5 ${last ? "shrink-0" : ""}`}>
              {separator}
              {last ? (
                <span aria-current="location" className="truncate px-1 font-semibold text-neutral-800 dark:text-neutral-200" title={blockLabel(crumb.block)}>
                  {text}
                </span>
              ) : (
                <button type="button" data-testid="path-crumb" className={crumbClass} title={`Back up to ${blockLabel(crumb.block)}`} onClick={() => up(crumb.index)}>
                  {text}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
