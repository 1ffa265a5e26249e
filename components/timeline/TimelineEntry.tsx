"use client";
import type { CompactionView, TimelineItem } from "@/lib/views";
import { ClearingNotice } from "./ClearingNotice";
import { CompactionBlock } from "./CompactionBlock";
import { MessageItem, type ReplyTools } from "./MessageItem";
import { UndoneBlock } from "./UndoneBlock";
import type { ToolPairing } from "./tool-cards";

/** The tool results a message's cards show, if it is a reply that called tools. */
export function replyTools(item: TimelineItem, pairing: ToolPairing): ReplyTools | undefined {
  if (item.type !== "message" || item.message.role !== "assistant" || item.message.toolCalls.length === 0) return undefined;
  return { results: pairing.results.get(item.message.id), open: pairing.open.has(item.message.id) };
}

/** One timeline item, top level or inside expanded compactions (`ancestors`, outermost first). */
export function TimelineEntry({ item, ancestors, tools }: { item: TimelineItem; ancestors?: CompactionView[]; tools?: ReplyTools }) {
  return item.type === "message" ? (
    <MessageItem message={item.message} nested={ancestors !== undefined && ancestors.length > 0} {...(tools ? { tools } : {})} />
  ) : item.type === "undone" ? (
    <UndoneBlock compaction={item.compaction} undone={item.undone} />
  ) : item.compaction.kind === "clearing" ? (
    <ClearingNotice compaction={item.compaction} />
  ) : (
    <CompactionBlock compaction={item.compaction} {...(ancestors ? { ancestors } : {})} />
  );
}
