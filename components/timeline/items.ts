// Pure helpers for the top-level timeline: ordering and merging what a turn streams in.
import type { CompactionView, MessageView, TimelineItem } from "@/lib/views";

export function itemSeq(item: TimelineItem): number {
  return item.type === "message" ? item.message.seq : item.compaction.fromSeq;
}

export function itemKey(item: TimelineItem): string {
  return item.type === "message" ? `m:${item.message.id}` : `${item.type === "undone" ? "u" : "c"}:${item.compaction.id}`;
}

/** A compaction stands before a message of the same seq (a pinned one kept beside it, the first call under a clearing). */
const rank = (item: TimelineItem) => (item.type === "message" ? 1 : 0);

function sorted(items: TimelineItem[]): TimelineItem[] {
  return [...items].sort((a, b) => itemSeq(a) - itemSeq(b) || rank(a) - rank(b));
}

/** Adds a persisted message, replacing an earlier copy with the same seq. */
export function upsertMessage(items: TimelineItem[], message: MessageView): TimelineItem[] {
  const rest = items.filter((item) => !(item.type === "message" && item.message.seq === message.seq));
  return sorted([...rest, { type: "message", message }]);
}

/** A compaction now stands where its messages (and any compactions it merged) were. */
export function applyCompaction(items: TimelineItem[], compaction: CompactionView): TimelineItem[] {
  // A clearing hides nothing from people: it stands before its messages, in place of the clearings it absorbed.
  if (compaction.kind === "clearing") {
    const overlaps = (c: CompactionView) => c.kind === "clearing" && c.toSeq >= compaction.fromSeq && c.fromSeq <= compaction.toSeq;
    return sorted([...items.filter((item) => item.type === "message" || !overlaps(item.compaction)), { type: "compaction", compaction }]);
  }
  const rest = items.filter((item) => {
    if (item.type === "message") return item.message.seq < compaction.fromSeq || item.message.seq > compaction.toSeq;
    const c = item.compaction;
    if (c.id === compaction.id) return false;
    // A clearing stays unless the summary covers all of it (its later results are still in view).
    if (c.kind === "clearing") return c.fromSeq < compaction.fromSeq || c.toSeq > compaction.toSeq;
    return c.toSeq < compaction.fromSeq || c.fromSeq > compaction.toSeq;
  });
  return sorted([...rest, { type: "compaction", compaction }]);
}

/**
 * The reason the last message, when it is the user's, went unanswered (null: it is being
 * answered now), as the server stores it with the message when a turn fails before any reply.
 */
export function noteUnanswered(items: TimelineItem[], error: string | null): TimelineItem[] {
  const last = lastMessage(items);
  if (last?.role !== "user" || (last.error ?? null) === error) return items;
  return items.map((item) => (item.type === "message" && item.message.id === last.id ? { ...item, message: { ...last, error } } : item));
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
