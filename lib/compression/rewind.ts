import type { RewindCompaction, RewindPlan } from "./types";

/**
 * Rewind: messages from `fromSeq` on are being removed. Every compaction
 * that reaches them is undone, and the children of undone compactions that end
 * before `fromSeq` become active again (recursively: a child that also reaches is
 * undone in turn and its own children are considered), so what they covered returns.
 */
export function planRewind(allCompactions: RewindCompaction[], fromSeq: number): RewindPlan {
  const live = allCompactions.filter((c) => !c.undone);
  const undo = live.filter((c) => c.toSeq >= fromSeq).map((c) => c.id);
  const undone = new Set(undo);
  const byId = new Map(live.map((c) => [c.id, c]));
  const reactivated = new Set<string>();
  for (const id of undo) {
    for (const childId of byId.get(id)?.childIds ?? []) {
      const child = byId.get(childId);
      if (child && !undone.has(child.id)) reactivated.add(child.id);
    }
  }
  return { undo, reactivate: live.filter((c) => reactivated.has(c.id)).map((c) => c.id) };
}
