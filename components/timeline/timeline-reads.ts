"use client";
// Where the timeline's stores read the history from. The owner's view reads through the
// server actions; a shared link's page (components/share) swaps in reads through its
// token-scoped GET routes, so the same timeline components serve both.
import { compactionChildrenAction, coveredPinnedAction, timelineAction, treePathAction } from "@/app/actions";

export type TimelineReads = {
  timeline: typeof timelineAction;
  children: typeof compactionChildrenAction;
  treePath: typeof treePathAction;
  coveredPinned: typeof coveredPinnedAction;
};

const OWNER_READS: TimelineReads = {
  timeline: timelineAction,
  children: compactionChildrenAction,
  treePath: treePathAction,
  coveredPinned: coveredPinnedAction,
};

let current: TimelineReads = OWNER_READS;

export function timelineReads(): TimelineReads {
  return current;
}

/** Reads through `reads` until the returned function restores the owner's. */
export function readTimelineFrom(reads: TimelineReads): () => void {
  current = reads;
  return () => {
    if (current === reads) current = OWNER_READS;
  };
}
