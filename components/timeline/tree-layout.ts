// Pure rules of how the compaction tree is laid out on screen: how far a level indents
// (only the first two do, so a message at any depth keeps nearly the timeline's width),
// what the path bar shows of a deep path, and what "Expand all" opens.
import type { CompactionView, TimelineItem } from "@/lib/views";

/** Levels of nesting below the top that still indent; deeper blocks stand flush with their parent's content. */
export const INDENTED_DEPTHS = 2;

/** How a block at `depth` (0 = top level) is drawn: a card with a rail while indenting, a flat band below that. */
export function blockFrame(depth: number): "card" | "nested-card" | "flat" {
  if (depth === 0) return "card";
  return depth < INDENTED_DEPTHS ? "nested-card" : "flat";
}

export type Crumb =
  | { kind: "all" }
  | { kind: "block"; block: CompactionView; /** Index of the block in the path. */ index: number }
  | { kind: "gap"; hidden: CompactionView[] };

/**
 * The path bar of an opened block: "All", then the blocks from the top level down to
 * this one. A deep path keeps the top-level block and the last `tail` blocks, with the
 * ones between folded into a gap, so the bar stays one short line.
 */
export function pathCrumbs(path: CompactionView[], tail = 3): Crumb[] {
  const blocks: Crumb[] = path.map((block, index) => ({ kind: "block", block, index }));
  if (path.length <= tail + 2) return [{ kind: "all" }, ...blocks];
  return [{ kind: "all" }, blocks[0]!, { kind: "gap", hidden: path.slice(1, path.length - tail) }, ...blocks.slice(path.length - tail)];
}

/** At most this many blocks open per "Expand all": each loads a page of what it replaced. */
export const EXPAND_ALL_LIMIT = 24;

/** What is open, and what an open block's loaded pages hold (undefined before its first page). */
type TreeState = { expanded: Record<string, boolean>; childrenOf: (compactionId: string) => TimelineItem[] | undefined };

/**
 * What "Expand all" opens: the closed blocks nearest the top, breadth first, among what
 * is loaded (top-level rows and the loaded pages of open blocks). Each press opens one
 * level more, never the whole history: at 100k messages that would be thousands of
 * requests and rows.
 */
export function blocksToExpand(items: TimelineItem[], tree: TreeState, limit = EXPAND_ALL_LIMIT): string[] {
  const out: string[] = [];
  let level: CompactionView[] = items.flatMap((item) => (item.type === "compaction" ? [item.compaction] : []));
  while (level.length > 0 && out.length < limit) {
    const next: CompactionView[] = [];
    for (const block of level) {
      if (!tree.expanded[block.id]) {
        out.push(block.id);
        if (out.length >= limit) break;
      } else {
        for (const child of tree.childrenOf(block.id) ?? []) if (child.type === "compaction") next.push(child.compaction);
      }
    }
    // Closed blocks at this depth come first; deeper ones only once every block here is open.
    if (out.length > 0) break;
    level = next;
  }
  return out;
}
