"use client";
import { useEffect, useMemo, useRef } from "react";
import { useCompactionTree } from "@/components/stores/compaction-tree-store";
import { useCompactionChildren } from "@/components/queries/compaction-children";
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
  const loaded = useCompactionChildren(compaction.id);
  const collapse = useCompactionTree((state) => state.collapse);
  const style = levelStyle(compaction.level);
  const more = useRef<HTMLDivElement>(null);
  const { items, hasMore, loading, error, loadMore } = loaded;
  const pairing = useMemo(() => pairToolResults(items), [items]);

  // The next page loads as the end of this one scrolls into view ("Load more" stays for
  // keyboards); not after a failure, which waits for Try again.
  useEffect(() => {
    const target = more.current;
    if (!target || !hasMore || loading || error) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, loading, error, loadMore]);

  return (
    <div
      id={id}
      data-testid="compaction-children"
      className={`min-w-0 space-y-1.5 ${ancestors.length + 1 < INDENTED_DEPTHS ? `ml-1 border-l-2 border-dashed pl-3 ${style.rail}` : ""}`}
    >
      {path.length > 1 ? <PathBar path={path} /> : null}
      {!loaded.loaded && loaded.loading ? (
        <p className="py-1 text-[12px] text-neutral-500" role="status">
          Loading what this {compaction.kind === "truncation" ? "truncation" : "summary"} replaced…
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-[12px] text-red-700 dark:text-red-400">
          Could not load: {error}{" "}
          <button type="button" className="underline" onClick={loaded.retry}>
            Try again
          </button>
        </p>
      ) : null}
      {items.map((item) => {
        if (item.type === "message" && pairing.folded.has(item.message.id)) return null;
        const tools = replyTools(item, pairing);
        // No turn runs inside a summary: a call without a result here never got one.
        return <TimelineEntry key={itemKey(item)} item={item} ancestors={path} {...(tools ? { tools: { ...tools, open: false } } : {})} />;
      })}
      {loaded.loaded && items.length === 0 ? (
        <p className="text-[12px] text-neutral-500">Nothing left to show (the covered messages were rewound).</p>
      ) : null}
      <div ref={more} className="flex items-center gap-2 pt-0.5">
        {hasMore ? (
          <Button size="xs" data-testid="compaction-load-more" disabled={loading} onClick={loadMore}>
            {loading ? "Loading…" : "Load more"}
          </Button>
        ) : null}
        {loaded.loaded ? (
          <Button size="xs" variant="ghost" onClick={() => collapse(compaction.id)} aria-controls={id}>
            Collapse L{compaction.level}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
