"use client";
import { useCallback, useEffect, useLayoutEffect } from "react";
import { useAttachments } from "@/components/stores/attachment-store";
import { useChat } from "@/components/stores/chat-store";
import { rememberOpenedCompactions } from "@/components/stores/compaction-tree-store";
import type { TimelineItem } from "@/lib/views";
import { AttachmentUrl } from "../chat/attachment-url";
import { HashReveal } from "../search/HashReveal";
import { Timeline } from "../timeline/Timeline";
import { ReadOnlyTimeline } from "../timeline/read-only";
import { readTimelineFrom } from "../timeline/timeline-reads";
import { sharedReads } from "./shared-reads";

/** The chat store's key for the conversation a link shows (its real id is not needed here). */
const SHARED_KEY = "shared";

/** A shared link's page: the owner's timeline, read-only, reading through the link's own routes. */
export function SharedConversation({ token, title, initialItems, initialHasEarlier }: { token: string; title: string; initialItems: TimelineItem[]; initialHasEarlier: boolean }) {
  const ready = useChat((state) => state.conversationId === SHARED_KEY);

  useLayoutEffect(() => {
    // Before the timeline mounts: its first reads (pinned strips, opened blocks) must already go through the link.
    const restore = readTimelineFrom(sharedReads(token));
    useChat.getState().open({ conversationId: SHARED_KEY, items: initialItems, hasEarlier: initialHasEarlier, meter: null, version: null });
    return restore;
    // Once per link; the page renders it again only on a reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  useEffect(rememberOpenedCompactions, []);

  // The files' chips, as the owner sees them, read and fetched through the link.
  const base = `/api/shared/${encodeURIComponent(token)}`;
  useEffect(() => {
    void useAttachments.getState().load(SHARED_KEY, `${base}/attachments`);
  }, [base]);
  const fileUrl = useCallback((id: string) => `${base}/attachments/${encodeURIComponent(id)}`, [base]);

  useEffect(() => {
    document.title = `${title} · shared · Strata`;
  }, [title]);

  return (
    <ReadOnlyTimeline.Provider value={true}>
      <AttachmentUrl.Provider value={fileUrl}>
        <div className="flex min-h-0 min-w-0 flex-1 flex-col" data-testid="shared-conversation" data-ready={ready}>
          <header className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-0.5 border-b border-neutral-200 px-4 py-2 dark:border-neutral-800">
            <h1 className="min-w-0 truncate text-[13.5px] font-semibold" data-testid="shared-heading">
              {title}
            </h1>
            <p className="text-[11.5px] text-neutral-600 dark:text-neutral-400">Shared conversation · read-only</p>
          </header>
          <HashReveal conversationId={SHARED_KEY} />
          <main className="flex min-h-0 min-w-0 flex-1 flex-col">{ready ? <Timeline /> : <div className="flex-1" />}</main>
        </div>
      </AttachmentUrl.Provider>
    </ReadOnlyTimeline.Provider>
  );
}
