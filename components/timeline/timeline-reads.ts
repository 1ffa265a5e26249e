"use client";
// Where the timeline's stores read the history from. The owner's view reads through the
// owner's GET routes (lib/http/owner-reads.ts); a shared link's page (components/share)
// swaps in reads through its token-scoped GET routes, so the same timeline components serve both.
import type { ActionResult } from "@/lib/errors";
import type { ReadAnswer } from "@/lib/http/owner-reads";
import { fetchRead } from "@/components/queries/fetch-read";

type Read<Input, K extends "timeline" | "children" | "treePath" | "coveredPinned"> = (input: Input) => Promise<ActionResult<ReadAnswer<K>>>;

export type TimelineReads = {
  timeline: Read<{ conversationId: string; beforeSeq?: number; limit?: number }, "timeline">;
  children: Read<{ compactionId: string; afterSeq?: number; limit?: number }, "children">;
  treePath: Read<{ conversationId: string; seq: number }, "treePath">;
  coveredPinned: Read<string, "coveredPinned">;
};

const OWNER_READS: TimelineReads = {
  timeline: ({ conversationId, ...query }) => fetchRead("timeline", conversationId, query),
  children: ({ compactionId, ...query }) => fetchRead("children", compactionId, query),
  treePath: ({ conversationId, seq }) => fetchRead("treePath", conversationId, { seq }),
  coveredPinned: (conversationId) => fetchRead("coveredPinned", conversationId),
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
