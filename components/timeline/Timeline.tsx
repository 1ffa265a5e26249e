"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { useChat } from "@/components/stores/chat-store";
import { useReveal } from "@/components/stores/reveal-store";
import { itemKey, lastMessage } from "@/components/timeline/items";
import type { TimelineItem } from "@/lib/views";
import { EarlierRow } from "./EarlierRow";
import { RetryRow } from "./RetryRow";
import { StreamingReply } from "./StreamingReply";
import { replyTools, TimelineEntry } from "./TimelineEntry";
import { ModelChangeLine } from "./ModelChangeLine";
import { modelChanges } from "./model-change";
import type { ReplyTools } from "./MessageItem";
import { pairToolResults } from "./tool-cards";
import { TimelineToolbar } from "./TimelineToolbar";
import { rememberPlace, rememberedPlace } from "./scroll-memory";
import { useReadOnly } from "./read-only";
import { useRowHold } from "./row-hold";

type Row =
  | { kind: "earlier" }
  | { kind: "item"; item: TimelineItem; tools?: ReplyTools; modelChange?: string }
  | { kind: "streaming" }
  | { kind: "retry"; replyShowsError: boolean; noted: string | null };

function rowKey(row: Row): string {
  return row.kind === "item" ? itemKey(row.item) : row.kind;
}

/** How close to the bottom (px) still counts as "following" new content. */
const FOLLOW_SLACK = 96;

/** The conversation as it happened, virtualized: only the rows on screen are rendered. */
export function Timeline() {
  const conversationId = useChat((state) => state.conversationId);
  const items = useChat((state) => state.items);
  const hasEarlier = useChat((state) => state.hasEarlier);
  const loadingEarlier = useChat((state) => state.loadingEarlier);
  const loadEarlier = useChat((state) => state.loadEarlier);
  const busy = useChat((state) => state.busy);
  // This tab's turn, or another tab's that this tab draws live.
  const turnRunning = useChat((state) => state.abort !== null || state.watching);
  const remoteTurn = useChat((state) => state.remoteTurn);
  const streamedText = useChat((state) => state.streaming?.text ?? "");
  const lastError = useChat((state) => state.lastError);
  const readOnly = useReadOnly();

  // A tool result is drawn in its call's card: it gets no row, and a request for its row
  // (a link, a search hit) goes to the reply holding that card.
  const pairing = useMemo(() => pairToolResults(items), [items]);
  const changes = useMemo(() => modelChanges(items), [items]);
  const rows = useMemo<Row[]>(() => {
    const list: Row[] = hasEarlier ? [{ kind: "earlier" }] : [];
    for (const item of items) {
      if (item.type === "message" && pairing.folded.has(item.message.id)) continue;
      const tools = replyTools(item, pairing);
      const modelChange = item.type === "message" ? changes.get(item.message.id) : undefined;
      list.push({ kind: "item", item, ...(tools ? { tools } : {}), ...(modelChange ? { modelChange } : {}) });
    }
    if (turnRunning) list.push({ kind: "streaming" });
    else if (!readOnly) {
      const last = lastMessage(items);
      const unanswered = last != null && (last.role === "user" || last.status === "error");
      // The failure is told once: by the failed reply's own bubble when it shows one, else by the row.
      const replyShowsError = last?.role === "assistant" && last.status === "error" && Boolean(last.error);
      // Why the model gave no reply, as stored with the message (it outlives this page).
      const noted = last?.role === "user" ? (last.error ?? null) : null;
      if (lastError?.retryable || (unanswered && !busy && !remoteTurn)) list.push({ kind: "retry", replyShowsError, noted });
    }
    return list;
  }, [items, pairing, changes, hasEarlier, turnRunning, lastError, busy, remoteTurn, readOnly]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const scrollElement = useCallback(() => scrollRef.current, []);
  const following = useRef(true);
  const lastScrollTop = useRef(0);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 8,
    getItemKey: (index) => rowKey(rows[index]!),
  });

  const scrollToBottom = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    // Rows measured after this frame can still grow the list: settle once more.
    requestAnimationFrame(() => {
      if (following.current) element.scrollTop = element.scrollHeight;
    });
  }, []);

  // Follow new content (and rows growing as they are measured) unless the user scrolled up.
  const totalSize = virtualizer.getTotalSize();
  const lastKey = rows.length ? rowKey(rows[rows.length - 1]!) : "";
  useLayoutEffect(() => {
    if (following.current) scrollToBottom();
  }, [lastKey, rows.length, streamedText, totalSize, scrollToBottom]);

  // Keep the view steady when an earlier page is prepended: the row at the top of the
  // view (noted as the reader scrolls) is put back where it was, then held there while the
  // rows around it are drawn. Measured by row, not by the list's height: rows measured
  // since the last page change the height too.
  const firstKey = rows.length ? rowKey(rows[hasEarlier ? 1 : 0] ?? rows[0]!) : "";
  const topRow = useRef<{ key: string; offset: number } | null>(null);
  const noteTopRow = (element: HTMLDivElement) => {
    const top = virtualizer.getVirtualItems().find((row) => row.end > element.scrollTop && rows[row.index]?.kind !== "earlier");
    topRow.current = top ? { key: String(top.key), offset: element.scrollTop - top.start } : null;
  };
  const { hold, release } = useRowHold(scrollElement);
  const shownFirst = useRef(firstKey);
  useLayoutEffect(() => {
    if (shownFirst.current === firstKey) return;
    shownFirst.current = firstKey;
    const element = scrollRef.current;
    const place = topRow.current;
    if (!element || !place || following.current) return;
    const index = rows.findIndex((row) => rowKey(row) === place.key);
    const start = index >= 0 ? virtualizer.getOffsetForIndex(index, "start")?.[0] : undefined;
    if (start === undefined) return;
    element.scrollTop = start + place.offset;
    hold(place.key, -place.offset);
    // The virtualizer learns the new offset now and draws the rows for it before the paint.
    element.dispatchEvent(new Event("scroll"));
    // Only a new first row moves the view; rows and measurements are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstKey]);

  // Opening where the reader left this conversation (a reload, Back), unless a link or a
  // search asks for a row: the row that was at the top of the view, as far into it.
  const restoredFor = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!conversationId || restoredFor.current === conversationId || rows.length === 0) return;
    restoredFor.current = conversationId;
    const place = rememberedPlace(conversationId);
    if (!place || window.location.hash) return;
    const index = rows.findIndex((row) => rowKey(row) === place.key);
    if (index < 0) return;
    following.current = false;
    release();
    virtualizer.scrollToIndex(index, { align: "start" });
    // Rows above are measured as they render: place it again once they have been.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const start = virtualizer.measurementsCache[index]?.start;
        if (start !== undefined && !following.current) virtualizer.scrollToOffset(start + place.offset);
      }),
    );
    // Once per conversation opened; later rows must not pull the view back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversationId, rows.length]);

  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const savePlace = (element: HTMLDivElement) => {
    if (saveTimer.current) clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      if (!conversationId || restoredFor.current !== conversationId) return;
      const top = virtualizer.getVirtualItems().find((row) => row.end > element.scrollTop);
      rememberPlace(conversationId, following.current || !top ? null : { key: String(top.key), offset: element.scrollTop - top.start });
    }, 150);
  };
  useEffect(() => () => {
    if (saveTimer.current) clearTimeout(saveTimer.current);
  }, []);

  // A search hit or a #m-SEQ link asks for a row: stop following and bring it on screen.
  const scrollTo = useReveal((state) => state.scrollTo);
  useEffect(() => {
    if (!scrollTo) return;
    const holder = scrollTo.key.startsWith("m:") ? pairing.folded.get(scrollTo.key.slice(2)) : undefined;
    const key = holder ? `m:${holder}` : scrollTo.key;
    const index = rows.findIndex((row) => rowKey(row) === key);
    if (index < 0) return;
    following.current = false;
    release();
    virtualizer.scrollToIndex(index, { align: "start" });
    // Only a new request scrolls; rows changing afterwards must not pull the view back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollTo]);

  const virtualRows = virtualizer.getVirtualItems();
  const readerScrolledUp = useCallback(() => !following.current, []);
  const loadOlder = useCallback(() => void loadEarlier(), [loadEarlier]);

  return (
    <>
      <TimelineToolbar />
      <div
        ref={scrollRef}
        data-testid="timeline"
        role="log"
        aria-label="Conversation"
        tabIndex={0}
        onScroll={(event) => {
          const element = event.currentTarget;
          const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
          // Only the user scrolling up stops following; growth from measuring rows does not.
          if (fromBottom < FOLLOW_SLACK) following.current = true;
          else if (element.scrollTop < lastScrollTop.current - 2) following.current = false;
          lastScrollTop.current = element.scrollTop;
          noteTopRow(element);
          savePlace(element);
        }}
        // The reader moving the view ends any hold on a row.
        onWheel={release}
        onTouchStart={release}
        onKeyDown={release}
        onPointerDown={release}
        className="min-h-0 flex-1 overflow-y-auto [overflow-anchor:none] focus:outline-none"
      >
        {rows.length === 0 ? (
          <div className="flex h-full items-center justify-center px-6 text-center text-[13px] text-neutral-500">
            {readOnly ? "No messages yet." : "Say something to start. Old messages are compressed automatically — and stay here."}
          </div>
        ) : (
          <div className="relative mx-auto w-full max-w-4xl" style={{ height: virtualizer.getTotalSize() }}>
            <div
              className="absolute top-0 left-0 w-full"
              style={{ transform: `translateY(${virtualRows[0]?.start ?? 0}px)` }}
            >
              {virtualRows.map((virtualRow) => {
                const row = rows[virtualRow.index]!;
                return (
                  <div
                    key={virtualRow.key}
                    data-index={virtualRow.index}
                    data-key={virtualRow.key}
                    ref={virtualizer.measureElement}
                    className="px-4 py-1"
                  >
                    {row.kind === "item" ? (
                      <>
                        {row.modelChange ? <ModelChangeLine model={row.modelChange} /> : null}
                        <TimelineEntry item={row.item} {...(row.tools ? { tools: row.tools } : {})} />
                      </>
                    ) : row.kind === "streaming" ? (
                      <StreamingReply />
                    ) : row.kind === "retry" ? (
                      <RetryRow replyShowsError={row.replyShowsError} noted={row.noted} />
                    ) : (
                      <EarlierRow root={scrollElement} readerScrolledUp={readerScrolledUp} loading={loadingEarlier} load={loadOlder} />
                    )}
                  </div>
                );
              })}
            </div>
          </div>
        )}
      </div>
    </>
  );
}
