"use client";
import { useEffect, useMemo, useRef } from "react";
import { useCompactionTree } from "@/components/stores/compaction-tree-store";
import type { CompactionView } from "@/lib/views";
import { itemKey } from "@/components/timeline/items";
import { Button } from "../ui/Button";
import { levelStyle } from "./levels";
import { PathBar } from "./PathBar";
import { replyTools, TimelineEntry } from "./TimelineEntry";
import { pairToolResults } from "./tool-cards";
import { INDENTED_DEPTHS } from "./tree-layout";

/** What an expanded compaction replaced: lower-level blocks (level ≥ 2) or the original messages. */
export function CompactionChildren({ compaction, ancestors, id }: { compaction: CompactionView; ancestors: CompactionView[]; id: string }) {
  const path = useMemo(() => [...ancestors, compaction], [ancestors, compaction]);
  const loaded = useCompactionTree((state) => state.children[compaction.id]);
  const loadChildren = useCompactionTree((state) => state.loadChildren);
  const collapse = useCompactionTree((state) => state.collapse);
  const style = levelStyle(compaction.level);
  const more = useRef<HTMLDivElement>(null);
  const nextAfterSeq = loaded?.nextAfterSeq ?? null;
  const busy = loaded?.loading ?? false;
  const pairing = useMemo(() => pairToolResults(loaded?.items ?? []), [loaded?.items]);

  // Opened without its children (reopened after a reload): load the first page.
  useEffect(() => {
    if (!loaded) void loadChildren(compaction.id);
  }, [loaded, loadChildren, compaction.id]);

  // The next page loads as the end of this one scrolls into view ("Load more" stays for keyboards).
  useEffect(() => {
    const target = more.current;
    if (!target || nextAfterSeq == null || busy) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void loadChildren(compaction.id, true);
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [nextAfterSeq, busy, loadChildren, compaction.id]);

  return (
    <div
      id={id}
      data-testid="compaction-children"
      className={`min-w-0 space-y-1.5 ${ancestors.length + 1 < INDENTED_DEPTHS ? `ml-1 border-l-2 border-dashed pl-3 ${style.rail}` : ""}`}
    >
      {path.length > 1 ? <PathBar path={path} /> : null}
      {!loaded || (!loaded.loaded && loaded.loading) ? (
        <p className="py-1 text-[12px] text-neutral-500" role="status">
          Loading what this {compaction.kind === "truncation" ? "truncation" : "summary"} replaced…
        </p>
      ) : null}
      {loaded?.error ? (
        <p role="alert" className="text-[12px] text-red-700 dark:text-red-400">
          Could not load: {loaded.error}{" "}
          <button type="button" className="underline" onClick={() => void loadChildren(compaction.id, loaded.loaded)}>
            Try again
          </button>
        </p>
      ) : null}
      {loaded?.items.map((item) => {
        if (item.type === "message" && pairing.folded.has(item.message.id)) return null;
        const tools = replyTools(item, pairing);
        // No turn runs inside a summary: a call without a result here never got one.
        return <TimelineEntry key={itemKey(item)} item={item} ancestors={path} {...(tools ? { tools: { ...tools, open: false } } : {})} />;
      })}
      {loaded?.loaded && loaded.items.length === 0 ? (
        <p className="text-[12px] text-neutral-500">Nothing left to show (the covered messages were rewound).</p>
      ) : null}
      <div ref={more} className="flex items-center gap-2 pt-0.5">
        {loaded?.nextAfterSeq != null ? (
          <Button
            size="xs"
            data-testid="compaction-load-more"
            disabled={loaded.loading}
            onClick={() => void loadChildren(compaction.id, true)}
          >
            {loaded.loading ? "Loading…" : "Load more"}
          </Button>
        ) : null}
        {loaded?.loaded ? (
          <Button size="xs" variant="ghost" onClick={() => collapse(compaction.id)} aria-controls={id}>
            Collapse L{compaction.level}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
