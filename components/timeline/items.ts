// Pure helpers for the top-level timeline: ordering and merging what a turn streams in.
import type { CompactionView, MessageView, TimelineItem } from "@/lib/views";

export function itemSeq(item: TimelineItem): number {
  return item.type === "message" ? item.message.seq : item.compaction.fromSeq;
}

export function itemKey(item: TimelineItem): string {
  return item.type === "message" ? `m:${item.message.id}` : `c:${item.compaction.id}`;
}

function sorted(items: TimelineItem[]): TimelineItem[] {
  return [...items].sort((a, b) => itemSeq(a) - itemSeq(b));
}

/** Adds a persisted message, replacing an earlier copy with the same seq. */
export function upsertMessage(items: TimelineItem[], message: MessageView): TimelineItem[] {
  const rest = items.filter((item) => !(item.type === "message" && item.message.seq === message.seq));
  return sorted([...rest, { type: "message", message }]);
}

/** A compaction now stands where its messages (and any compactions it merged) were. */
export function applyCompaction(items: TimelineItem[], compaction: CompactionView): TimelineItem[] {
  const rest = items.filter((item) => {
    if (item.type === "message") return item.message.seq < compaction.fromSeq || item.message.seq > compaction.toSeq;
    const c = item.compaction;
    if (c.id === compaction.id) return false;
    return c.toSeq < compaction.fromSeq || c.fromSeq > compaction.toSeq;
  });
  return sorted([...rest, { type: "compaction", compaction }]);
}

export function patchMessage(items: TimelineItem[], messageId: string, patch: Partial<Pick<MessageView, "pinned">>): TimelineItem[] {
  return items.map((item) =>
    item.type === "message" && item.message.id === messageId
      ? ({ ...item, message: { ...item.message, ...patch } } as TimelineItem)
      : item,
  );
}

export function lastMessage(items: TimelineItem[]): MessageView | null {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (item?.type === "message") return item.message;
  }
  return null;
}

/** Merges an earlier page in front of what is loaded (dropping duplicates). */
export function prependPage(items: TimelineItem[], earlier: TimelineItem[]): TimelineItem[] {
  const known = new Set(items.map(itemKey));
  return sorted([...earlier.filter((item) => !known.has(itemKey(item))), ...items]);
}
