// How the chat view merges a compaction streamed in by a turn: a clearing hides no message.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { applyCompaction, noteUnanswered } from "@/components/timeline/items";
import { TimelineEntry } from "@/components/timeline/TimelineEntry";
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

describe("a clearing in the timeline", () => {
  it("is a thin notice with its title, the tokens before and after and its range, not a block that opens", () => {
    const clearing = { ...compaction("k1", "clearing", 12, 40), title: "9 tool results cleared", tokensBefore: 30_500, tokensAfter: 9_100 } as CompactionView;
    const html = renderToStaticMarkup(createElement(TimelineEntry, { item: { type: "compaction", compaction: clearing } }));
    expect(html).toContain('data-testid="clearing-notice"');
    expect(html).not.toContain("compaction-toggle");
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("9 tool results cleared from the model&#x27;s view · 30,500 → 9,100 tokens");
    expect(text).toContain("#12–#40");
  });
});

describe("noteUnanswered (timeline items)", () => {
  const user = (seq: number, error: string | null = null): TimelineItem => ({ type: "message", message: { id: `u${seq}`, seq, role: "user", content: `#${seq}`, error } as MessageView });
  const errorOf = (items: TimelineItem[], seq: number) => {
    const item = items.find((entry) => entry.type === "message" && entry.message.seq === seq);
    return item?.type === "message" && item.message.role === "user" ? (item.message.error ?? null) : "not a user message";
  };

  it("notes why the last message, the user's, went unanswered, and clears it when a reply comes", () => {
    const failed = noteUnanswered([message(1), user(2)], "HTTP 500");
    expect(errorOf(failed, 2)).toBe("HTTP 500");
    expect(errorOf(noteUnanswered(failed, null), 2)).toBeNull();
  });

  it("touches nothing when the last message is not the user's, or an earlier one carries the note", () => {
    const items = [user(2, "HTTP 500"), message(3)];
    expect(noteUnanswered(items, "timeout")).toBe(items);
    expect(noteUnanswered(items, null)).toBe(items);
    expect(errorOf(noteUnanswered([user(2, "HTTP 500"), user(4)], null), 2)).toBe("HTTP 500");
  });
});
