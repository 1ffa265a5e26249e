// How the chat view merges a compaction streamed in by a turn: a clearing hides no message.
import { describe, expect, it } from "vitest";
import { applyCompaction } from "@/components/timeline/items";
import type { CompactionView, MessageView, TimelineItem } from "@/lib/views";

const message = (seq: number): TimelineItem => ({ type: "message", message: { id: `m${seq}`, seq, role: seq % 2 ? "assistant" : "tool", content: `#${seq}` } as MessageView });
const compaction = (id: string, kind: CompactionView["kind"], fromSeq: number, toSeq: number): CompactionView =>
  ({ id, kind, level: kind === "clearing" ? 0 : 1, fromSeq, toSeq, summary: id, title: id }) as CompactionView;
const shape = (items: TimelineItem[]) => items.map((item) => (item.type === "message" ? item.message.seq : item.compaction.id));

describe("applyCompaction (timeline items)", () => {
  const messages = Array.from({ length: 8 }, (_, index) => message(index + 1));

  it("a clearing stands before its first message and hides none", () => {
    expect(shape(applyCompaction(messages, compaction("k1", "clearing", 3, 6)))).toEqual([1, 2, "k1", 3, 4, 5, 6, 7, 8]);
  });

  it("a clearing takes the place of a clearing it absorbs", () => {
    const once = applyCompaction(messages, compaction("k1", "clearing", 3, 4));
    expect(shape(applyCompaction(once, compaction("k2", "clearing", 3, 6)))).toEqual([1, 2, "k2", 3, 4, 5, 6, 7, 8]);
  });

  it("a summary over part of a clearing leaves it; over all of it, removes it", () => {
    const cleared = applyCompaction(messages, compaction("k1", "clearing", 3, 6));
    expect(shape(applyCompaction(cleared, compaction("s1", "summary", 1, 4)))).toEqual(["s1", "k1", 5, 6, 7, 8]);
    expect(shape(applyCompaction(cleared, compaction("s2", "summary", 1, 6)))).toEqual(["s2", 7, 8]);
  });
});
