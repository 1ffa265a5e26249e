"use client";
import { useEffect, useMemo, useRef, useState } from "react";
import { useConversationList } from "@/components/stores/conversation-list-store";
import type { ConversationSummary } from "@/lib/views";
import { ChevronIcon } from "../ui/icons";
import { ConversationListItem } from "./ConversationListItem";
import { groupByDate } from "./date-groups";

const HEADER = "px-2 pb-0.5 pt-2 text-[11px] font-semibold uppercase tracking-wide text-neutral-500 dark:text-neutral-400";
const MORE = "w-full rounded-md px-2 py-1 text-left text-[12px] text-neutral-600 hover:bg-neutral-200/60 focus-visible:outline-2 focus-visible:outline-sky-500 dark:text-neutral-400 dark:hover:bg-neutral-800";

type ItemsProps = { items: ConversationSummary[]; activeId: string | null; onDeletedActive: () => void };

function ConversationItems({ items, activeId, onDeletedActive }: ItemsProps) {
  return (
    <ul className="space-y-px">
      {items.map((conversation) => (
        <ConversationListItem
          key={conversation.id}
          conversation={conversation}
          active={conversation.id === activeId}
          onDeleted={() => {
            if (conversation.id === activeId) onDeletedActive();
          }}
        />
      ))}
    </ul>
  );
}

function Group({ label, items, activeId, onDeletedActive }: { label: string } & ItemsProps) {
  const id = `group-${label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section aria-labelledby={id} data-testid="conversation-group" data-label={label}>
      <h2 id={id} className={HEADER} data-testid="date-group">
        {label}
      </h2>
      <ConversationItems items={items} activeId={activeId} onDeletedActive={onDeletedActive} />
    </section>
  );
}

/**
 * The main list in groups (Pinned, then by the date of last activity in this browser's
 * time zone), loading the next page as its end scrolls into view, and the archive below,
 * loaded when opened.
 */
export function ConversationGroups({
  hidden,
  activeId,
  loadError,
  onDeletedActive,
}: {
  hidden: boolean;
  activeId: string | null;
  loadError: string | null;
  onDeletedActive: () => void;
}) {
  const { pinned, recent, next, archive, loadMore, loadArchive, loadingMore, error } = useConversationList();
  const [archiveOpen, setArchiveOpen] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  // The day boundaries move at midnight; a re-render after that (any list change) regroups.
  const groups = useMemo(() => groupByDate(recent, new Date()), [recent]);

  useEffect(() => {
    const target = end.current;
    if (!target || !next) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void loadMore();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [next, loadMore]);

  const empty = pinned.length === 0 && recent.length === 0;
  return (
    <div className={`flex-1 overflow-y-auto p-2 ${hidden ? "hidden" : ""}`} data-testid="conversation-list">
      {empty && !loadError ? <p className="px-2 py-6 text-center text-xs text-neutral-500">No conversations yet.</p> : null}
      {pinned.length > 0 ? <Group label="Pinned" items={pinned} activeId={activeId} onDeletedActive={onDeletedActive} /> : null}
      {groups.map((group) => (
        <Group key={group.label} label={group.label} items={group.items} activeId={activeId} onDeletedActive={onDeletedActive} />
      ))}
      {next ? (
        <div ref={end} className="pt-1">
          <button type="button" data-testid="load-more-conversations" className={MORE} disabled={loadingMore} onClick={() => void loadMore()}>
            {loadingMore ? "Loading…" : "Show older conversations"}
          </button>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="m-1 text-[11px] text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <section aria-label="Archived conversations" className="mt-2 border-t border-neutral-200 pt-1 dark:border-neutral-800">
        <button
          type="button"
          data-testid="archive-toggle"
          aria-expanded={archiveOpen}
          className={`${MORE} flex items-center gap-1`}
          onClick={() => {
            if (!archiveOpen) void loadArchive();
            setArchiveOpen(!archiveOpen);
          }}
        >
          <ChevronIcon className={`size-3 transition-transform ${archiveOpen ? "rotate-90" : ""}`} /> Archived
        </button>
        {archiveOpen ? (
          <div data-testid="archived-list">
            {archive.loaded && archive.items.length === 0 ? <p className="px-2 py-2 text-[12px] text-neutral-500">Nothing archived.</p> : null}
            <ConversationItems items={archive.items} activeId={activeId} onDeletedActive={onDeletedActive} />
            {archive.next ? (
              <button type="button" className={MORE} onClick={() => void loadArchive(true)}>
                Show more archived
              </button>
            ) : null}
          </div>
        ) : null}
      </section>
    </div>
  );
}
