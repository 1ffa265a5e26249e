import type { RewindPlan } from "./types";

/** A compaction as the undo rule needs it: its state and the records it merged. */
export type UndoTarget = {
  id: string;
  level: number;
  fromSeq: number;
  toSeq: number;
  supersededById: string | null;
  undone: boolean;
  /** Records it merged (or a clearing absorbed) that are not undone themselves. */
  childIds: string[];
};

/** The record that merged the target, to name in a refusal. */
export type UndoParent = { level: number; fromSeq: number; toSeq: number };

export type UndoDecision =
  | { kind: "allowed"; plan: RewindPlan }
  | { kind: "refused"; reason: "already_undone" | "merged"; message: string };

/**
 * "Undo this compaction", with the rewind's own mechanism (undoneAt, children made
 * active again): only a record the model sees now — active, not merged into a higher
 * level — can be undone, whatever its kind (a summary, a merge, a truncation, a
 * clearing). What it replaced comes back exactly as it stood before it: its children
 * become active again (a merge gives back its summaries, not their messages), and the
 * messages no child covers return to the model's view. Coverage holds: the children lie
 * inside its range and never overlap. A merged record is refused (undoing its parent
 * brings it back first), so one undo never reshapes more than one level of the tree.
 */
export function planUndo(target: UndoTarget, parent: UndoParent | null): UndoDecision {
  if (target.undone) {
    return { kind: "refused", reason: "already_undone", message: "This compaction has already been undone." };
  }
  if (target.supersededById !== null) {
    const where = parent ? `the level ${parent.level} summary of #${parent.fromSeq}–#${parent.toSeq}` : "a higher-level summary";
    return {
      kind: "refused",
      reason: "merged",
      message: `This summary is merged into ${where}, which is what the model sees. Undo that one first: it brings this one back.`,
    };
  }
  return { kind: "allowed", plan: { undo: [target.id], reactivate: [...target.childIds] } };
}
