import type { Db } from "./client.ts";
import { notFound } from "../errors.ts";
import type { RewindCompaction } from "../compression/types";

export type RewindPlanner = (compactions: RewindCompaction[], fromSeq: number) => { undo: string[]; reactivate: string[] };

/**
 * What a version change adds to a rewind: `keepAs` marks the hidden messages as the
 * branch of that version (so switching back shows them again); `show` brings back the
 * branch kept for another version. Plain rewinds ("delete last turn") pass neither.
 */
export type BranchChange = { keepAs?: string; show?: string };

/**
 * Hides messages from `fromSeq` on (they stay in the database, marked rewound) and
 * undoes every compaction that covered any of them, returning the records they had
 * merged to the active context; with `branch.show`, shows a kept branch in their place.
 * One transaction, under the conversation's row lock.
 */
export async function rewindFrom(
  db: Db,
  userId: string,
  conversationId: string,
  fromSeq: number,
  plan: RewindPlanner,
  branch: BranchChange = {},
): Promise<{ hiddenMessages: number; shownMessages: number; undoneCompactions: number }> {
  return db.$transaction(async (tx) => {
    // Bumping the version takes the row lock and tells any compaction prepared from
    // the old history that it may no longer be saved.
    const locked = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Conversation" SET "historyVersion" = "historyVersion" + 1 WHERE id = ${conversationId} AND "userId" = ${userId} RETURNING id`;
    if (locked.length === 0) throw notFound("conversation", conversationId);
    // The planner needs the whole tree around the affected records.
    const all = await tx.compaction.findMany({
      where: { conversationId, undoneAt: null },
      select: { id: true, fromSeq: true, toSeq: true, supersededById: true },
    });
    const childIds = new Map<string, string[]>();
    for (const row of all) {
      if (row.supersededById) childIds.set(row.supersededById, [...(childIds.get(row.supersededById) ?? []), row.id]);
    }
    const { undo, reactivate } = plan(
      all.map((row) => ({ ...row, childIds: childIds.get(row.id) ?? [], undone: false })),
      fromSeq,
    );
    const now = new Date();
    if (undo.length) await tx.compaction.updateMany({ where: { id: { in: undo } }, data: { undoneAt: now } });
    if (reactivate.length) {
      await tx.compaction.updateMany({ where: { id: { in: reactivate } }, data: { supersededById: null } });
    }
    const { count } = await tx.message.updateMany({
      where: { conversationId, seq: { gte: fromSeq }, rewoundAt: null },
      data: { rewoundAt: now, ...(branch.keepAs ? { branchOf: branch.keepAs } : {}) },
    });
    // The shown branch starts at or after fromSeq, so no compaction left active covers it.
    const shown = branch.show
      ? await tx.message.updateMany({ where: { conversationId, branchOf: branch.show }, data: { rewoundAt: null, branchOf: null } })
      : { count: 0 };
    if (count !== shown.count) {
      await tx.conversation.update({ where: { id: conversationId }, data: { hiddenMessageCount: { increment: count - shown.count } } });
    }
    return { hiddenMessages: count, shownMessages: shown.count, undoneCompactions: undo.length };
  });
}
