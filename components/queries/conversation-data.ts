"use client";
// The open conversation's server data beside its timeline: context meter, activity,
// cost and pinned messages, as queries under keys.conversation(id). The stores write
// what a turn already told them (the meter of its `done` event) and invalidate what
// their mutations changed; nothing here polls.
import { useQuery } from "@tanstack/react-query";
import type { ContextMeterView, MessageView, TimelineItem } from "@/lib/views";
import { timelineReads } from "@/components/timeline/timeline-reads";
import { keys } from "./keys";
import { queryClient } from "./query-client";
import { readOrThrow } from "./fetch-read";

/** The context meter: seeded by the page and by each turn's `done` event, read again after other changes. */
export function useMeter(conversationId: string | null) {
  return useQuery({
    queryKey: keys.meter(conversationId ?? ""),
    queryFn: () => readOrThrow("meter", conversationId!),
    enabled: conversationId !== null,
  }).data ?? null;
}

export function setMeter(conversationId: string, meter: ContextMeterView | null): void {
  if (meter) queryClient().setQueryData(keys.meter(conversationId), meter);
}

/** The Activity panel's data, loaded only while the panel is open. */
export function useActivityData(conversationId: string | null, open: boolean) {
  return useQuery({
    queryKey: keys.activity(conversationId ?? ""),
    queryFn: () => readOrThrow("activity", conversationId!),
    enabled: conversationId !== null && open,
  });
}

/**
 * What the conversation's model calls cost. `read: false` only looks at what the header
 * last read (a compaction's line; a shared link's page has no cost to read).
 */
export function useConversationCost(conversationId: string | null, { read = true }: { read?: boolean } = {}) {
  return useQuery({
    queryKey: keys.cost(conversationId ?? ""),
    queryFn: () => readOrThrow("cost", conversationId!),
    enabled: read && conversationId !== null,
  }).data ?? null;
}

/** Pinned originals under the top-level blocks (`blocks`: their ids); read through the shared link's routes on its page. */
export function useCoveredPinned(conversationId: string | null, blocks: string) {
  return useQuery({
    queryKey: keys.coveredPinned(conversationId ?? "", blocks),
    queryFn: async () => {
      const result = await timelineReads().coveredPinned(conversationId!);
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    enabled: conversationId !== null && blocks !== "",
  });
}

/** Every pinned message of the conversation (the Pinned dialog), read when the dialog opens. */
export function usePinnedList(conversationId: string, open: boolean) {
  return useQuery({ queryKey: keys.pinnedList(conversationId), queryFn: () => readOrThrow("pinnedList", conversationId), enabled: open });
}

/** What can change with this tab's own turn: its cost, its activity (the meter came with `done`). */
export function turnChanged(conversationId: string, meterKnown: boolean): Promise<void> {
  const client = queryClient();
  return Promise.all([
    client.invalidateQueries({ queryKey: keys.cost(conversationId) }),
    client.invalidateQueries({ queryKey: keys.activity(conversationId) }),
    meterKnown ? null : client.invalidateQueries({ queryKey: keys.meter(conversationId) }),
  ]).then(() => undefined);
}

/**
 * A pin set or cleared: an unpinned message leaves the strips at once; then the strips
 * and the list read again (a new pin may sit under a block).
 */
export function pinsChanged(conversationId: string, messageId: string, pinned: boolean): Promise<void> {
  const client = queryClient();
  if (!pinned) {
    client.setQueriesData<MessageView[]>({ queryKey: [...keys.pinned(conversationId), "covered"] }, (messages) =>
      messages?.filter((message) => message.id !== messageId),
    );
  }
  return client.invalidateQueries({ queryKey: keys.pinned(conversationId) });
}

/** The ids of the timeline's top-level blocks, as one key. */
export function topBlocks(items: TimelineItem[]): string {
  return items.flatMap((item) => (item.type === "compaction" ? [item.compaction.id] : [])).join(",");
}

/** Anything of the conversation may have changed (another tab, a compaction, a rewind): every query of it reads again if shown. */
export function conversationChanged(conversationId: string): Promise<void> {
  return queryClient().invalidateQueries({ queryKey: keys.conversation(conversationId) });
}
