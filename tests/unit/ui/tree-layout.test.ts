import { describe, expect, it } from "vitest";
import { blockLabel, blockRange, blockTitle, openLabel } from "../../../components/timeline/block-title";
import { clipTitle, deriveTitle, MAX_TITLE_CHARS } from "../../../lib/compression/title";
import { parseMessageNumber } from "../../../components/timeline/jump";
import { blockFrame, blocksToExpand, EXPAND_ALL_LIMIT, pathCrumbs } from "../../../components/timeline/tree-layout";
import type { CompactionView, TimelineItem } from "../../../lib/views";

function block(over: Partial<CompactionView> & { id?: string } = {}): CompactionView {
  return {
    id: over.id ?? `c${over.level ?? 1}-${over.fromSeq ?? 1}`,
    level: 1, kind: "summary", trigger: "auto", strategy: "ai_summary", fromSeq: 1, toSeq: 40,
    summary: "Summary of the conversation so far.", title: null, outOfView: null, sections: null, summaryModel: null, instructions: null,
    summaryTokens: 10, coveredMessageCount: 40, coveredTokens: 400, tokensBefore: 0, tokensAfter: 0,
    messagesBefore: 0, messagesAfter: 0, durationMs: 1, background: false, createdAt: "2026-11-26T00:00:00.000Z", childCount: 0, looseMessageCount: 40,
    ...over,
  };
}

describe("blockTitle", () => {
  it("uses the row's own title when it has one, clipped as the engine clips titles", () => {
    expect(blockTitle(block({ title: "  Lisbon trip: tram 28 and a 900 € budget " }))).toBe("Lisbon trip: tram 28 and a 900 € budget");
    const long = blockTitle(block({ title: "planning the orchard irrigation ".repeat(10) }));
    expect(long.length).toBeLessThanOrEqual(MAX_TITLE_CHARS + 1);
    expect(long).toBe(clipTitle("planning the orchard irrigation ".repeat(10)));
  });

  it("falls back to the engine's derived title, which skips the opener the demo model writes on every block", () => {
    const summary = "Summary of the conversation so far.\nFACT city=Lisbon\nDigest: 20 messages.";
    for (const title of [null, "   "]) {
      expect(blockTitle(block({ summary, title }))).toBe(deriveTitle(summary));
      expect(blockTitle(block({ summary, title }))).not.toMatch(/summary of the conversation/i);
    }
  });

  it("names truncations, and gives blocks that say the same thing distinct labels through their range", () => {
    expect(blockTitle(block({ kind: "truncation", coveredMessageCount: 6 }))).toBe("6 messages dropped from the model's view");
    const a = block({ fromSeq: 1, toSeq: 40, level: 3, title: "Garden plans" });
    const b = block({ fromSeq: 41, toSeq: 80, level: 2, title: "Garden plans" });
    expect(blockLabel(a)).not.toBe(blockLabel(b));
    expect(blockLabel(b)).toBe("L2 · Garden plans · #41–#80");
    expect(blockRange({ fromSeq: 7, toSeq: 7 })).toBe("#7");
  });
});

describe("pathCrumbs", () => {
  const path = Array.from({ length: 22 }, (_, i) => block({ id: `l${22 - i}`, level: 22 - i }));

  it("lists a short path whole after All", () => {
    expect(pathCrumbs(path.slice(0, 3)).map((c) => (c.kind === "block" ? c.block.level : c.kind))).toEqual(["all", 22, 21, 20]);
  });

  it("folds the middle of a deep path, keeping the top block and the last three", () => {
    const crumbs = pathCrumbs(path);
    expect(crumbs.map((c) => (c.kind === "block" ? c.block.level : c.kind))).toEqual(["all", 22, "gap", 3, 2, 1]);
    const gap = crumbs[2];
    expect(gap?.kind === "gap" ? gap.hidden.length : 0).toBe(18);
    const last = crumbs.at(-1);
    expect(last?.kind === "block" ? last.index : -1).toBe(21);
  });
});

describe("blockFrame", () => {
  it("indents only the first levels, whatever the depth", () => {
    expect([0, 1, 2, 5, 21].map(blockFrame)).toEqual(["card", "nested-card", "flat", "flat", "flat"]);
  });
});

describe("blocksToExpand", () => {
  const top = (id: string): TimelineItem => ({ type: "compaction", compaction: block({ id }) });
  const message: TimelineItem = {
    type: "message",
    message: { id: "m", seq: 99, role: "user", content: "hi", tokenCount: 1, status: "complete", pinned: false, createdAt: "" },
  };

  it("opens the closed top-level blocks first", () => {
    expect(blocksToExpand([top("a"), message, top("b")], { expanded: {}, childrenOf: () => undefined })).toEqual(["a", "b"]);
  });

  it("then one level deeper among loaded children only", () => {
    const loaded: Record<string, TimelineItem[]> = { a: [top("a1"), top("a2"), message] };
    const tree = { expanded: { a: true, b: true }, childrenOf: (id: string) => loaded[id] };
    expect(blocksToExpand([top("a"), top("b")], tree)).toEqual(["a1", "a2"]);
  });

  it("is bounded", () => {
    const many = Array.from({ length: 100 }, (_, i) => top(`t${i}`));
    expect(blocksToExpand(many, { expanded: {}, childrenOf: () => undefined })).toHaveLength(EXPAND_ALL_LIMIT);
  });
});

describe("parseMessageNumber", () => {
  it("reads a number with or without #", () => {
    expect(["12", "#12", " # 12 "].map(parseMessageNumber)).toEqual([12, 12, 12]);
    expect(["", "0", "twelve", "1.5", "-3", "#"].map(parseMessageNumber)).toEqual([null, null, null, null, null, null]);
  });
});

describe("openLabel", () => {
  it("says what opening a block shows: originals, the summaries it merged, and a fold's messages beside them", () => {
    expect(openLabel(block({ level: 1, coveredMessageCount: 12 }))).toBe("show 12 original messages");
    expect(openLabel(block({ level: 2, childCount: 3, looseMessageCount: 0 }))).toBe("3 summaries inside");
    expect(openLabel(block({ level: 2, childCount: 1, looseMessageCount: 5 }))).toBe("1 summary and 5 messages inside");
  });
});
