// What a collapsed block says about itself, so that a collapsed tree can be skimmed:
// its title, and beside it the range, so two blocks never read alike.
import { clipTitle, deriveTitle } from "@/lib/compression/title";
import type { CompactionView } from "@/lib/views";
import { plural } from "@/components/format";

type TitledBlock = Pick<CompactionView, "kind" | "level" | "fromSeq" | "toSeq" | "summary" | "coveredMessageCount" | "title">;

/** "#12–#40": the originals a block stands for. */
export function blockRange(block: Pick<CompactionView, "fromSeq" | "toSeq">): string {
  return block.fromSeq === block.toSeq ? `#${block.fromSeq}` : `#${block.fromSeq}–#${block.toSeq}`;
}

/**
 * The block's short title: its own (the summarizer's, or the one the server derived for a
 * row from before titles), else the engine's derivation, so the timeline and the model's
 * stand-ins never disagree on what a summary is called.
 */
export function blockTitle(block: TitledBlock): string {
  const own = block.title?.trim();
  if (own) return clipTitle(own);
  if (block.kind === "truncation") return `${block.coveredMessageCount} messages dropped from the model's view`;
  return deriveTitle(block.summary);
}

/** Everything the header shows in one line, for its title attribute and for screen readers. */
export function blockLabel(block: TitledBlock): string {
  return `L${block.level} · ${blockTitle(block)} · ${blockRange(block)}`;
}

/** What opening a block shows: its originals, or the summaries it merged (and a fold's new messages beside them). */
export function openLabel(block: Pick<CompactionView, "level" | "childCount" | "looseMessageCount" | "coveredMessageCount">): string {
  if (block.level < 2 || block.childCount === 0) return `show ${plural(block.coveredMessageCount, "original message")}`;
  const summaries = plural(block.childCount, "summary", "summaries");
  return block.looseMessageCount > 0 ? `${summaries} and ${plural(block.looseMessageCount, "message")} inside` : `${summaries} inside`;
}
