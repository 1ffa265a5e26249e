"use client";
import type { TimelineItem } from "@/lib/views";
import { CompactionBlock } from "./CompactionBlock";
import { MessageItem } from "./MessageItem";

/** One timeline item, top level or inside an expanded compaction. */
export function TimelineEntry({ item, nested = false }: { item: TimelineItem; nested?: boolean }) {
  return item.type === "message" ? (
    <MessageItem message={item.message} nested={nested} />
  ) : (
    <CompactionBlock compaction={item.compaction} />
  );
}
