"use client";
import type { CompactionView, TimelineItem } from "@/lib/views";
import { ClearingNotice } from "./ClearingNotice";
import { CompactionBlock } from "./CompactionBlock";
import { MessageItem } from "./MessageItem";

/** One timeline item, top level or inside expanded compactions (`ancestors`, outermost first). */
export function TimelineEntry({ item, ancestors }: { item: TimelineItem; ancestors?: CompactionView[] }) {
  return item.type === "message" ? (
    <MessageItem message={item.message} nested={ancestors !== undefined && ancestors.length > 0} />
  ) : item.compaction.kind === "clearing" ? (
    <ClearingNotice compaction={item.compaction} />
  ) : (
    <CompactionBlock compaction={item.compaction} {...(ancestors ? { ancestors } : {})} />
  );
}
