// "Undo this compaction" on the database side: the undo itself (one transaction under
// the conversation's row lock), the undone records the timeline shows, and the list
// the Activity panel shows. The rule of what may be undone is the engine's
// (lib/compression/undo.ts); the marks are the rewind's (undoneAt, children made active).
import type { Db } from "./client.ts";
import type { Compaction } from "./generated/client.ts";
import { toCompactionView } from "./mappers.ts";
import { AppError, notFound } from "../errors.ts";
import type { UndoDecision, UndoParent, UndoTarget } from "../compression/undo";
import type { TimelineItem, UndoneView } from "../views";

export type UndoPlanner = (target: UndoTarget, parent: UndoParent | null) => UndoDecision;

export type UndoResult = {
  conversationId: string;
  compactionId: string;
  /** Summaries (or clearings) it had merged, active again. */
  restoredCompactions: number;
  /** Original messages back in the model's view (those no restored child covers). */
  restoredMessages: number;
  undoneAt: string;
};

/** The conversation a compaction belongs to, if it is the user's (another user's id is "not found"). */
export async function compactionConversation(db: Db, userId: string, compactionId: string): Promise<string> {
  const row = await db.compaction.findFirst({ where: { id: compactionId, conversation: { userId } }, select: { conversationId: true } });
  if (!row) throw notFound("compaction", compactionId);
  return row.conversationId;
}

/**
 * Undoes one compaction: marks it undone (who, when) and makes the records it merged
 * active again, or refuses with the rule's reason (409). Reads and writes under the
 * conversation's row lock, which a compaction's save takes too, so a concurrent save
 * either lands first (and this one sees it) or finds its children changed and is skipped.
 * The context-version trigger moves with the update.
 */
export async function undoCompaction(db: Db, userId: string, compactionId: string, plan: UndoPlanner): Promise<UndoResult> {
  const conversationId = await compactionConversation(db, userId, compactionId);
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Conversation" WHERE id = ${conversationId} AND "userId" = ${userId} FOR UPDATE`;
    if (locked.length === 0) throw notFound("compaction", compactionId);
    const target = await tx.compaction.findUnique({ where: { id: compactionId } });
    if (!target) throw notFound("compaction", compactionId);
    const children = await tx.compaction.findMany({
      where: { supersededById: compactionId, undoneAt: null },
      select: { id: true, coveredMessageCount: true },
    });
    const parent = target.supersededById
      ? await tx.compaction.findUnique({ where: { id: target.supersededById }, select: { level: true, fromSeq: true, toSeq: true } })
      : null;
    const decision = plan(
      { ...target, undone: target.undoneAt !== null, childIds: children.map((c) => c.id) },
      parent,
    );
    if (decision.kind === "refused") throw new AppError("conflict", decision.message);
    const now = new Date();
    const { count } = await tx.compaction.updateMany({
      where: { id: { in: decision.plan.undo }, conversationId, supersededById: null, undoneAt: null },
      data: { undoneAt: now, undoneBy: userId },
    });
    if (count !== decision.plan.undo.length) throw new AppError("conflict", "This compaction changed meanwhile. Reload and try again.");
    if (decision.plan.reactivate.length > 0) {
      await tx.compaction.updateMany({ where: { id: { in: decision.plan.reactivate }, supersededById: compactionId }, data: { supersededById: null } });
    }
    const childMessages = children.reduce((sum, child) => sum + child.coveredMessageCount, 0);
    return {
      conversationId,
      compactionId,
      restoredCompactions: decision.plan.reactivate.length,
      restoredMessages: target.kind === "clearing" ? 0 : Math.max(0, target.coveredMessageCount - childMessages),
      undoneAt: now.toISOString(),
    };
  });
}

/** Undone by its owner, and where it stood. */
type UndoneRow = Compaction & { undoneAt: Date; undoneBy: string };

async function undoneRows(db: Db, conversationId: string, limit?: number): Promise<UndoneRow[]> {
  const rows = await db.compaction.findMany({
    where: { conversationId, undoneAt: { not: null }, undoneBy: { not: null } },
    orderBy: { undoneAt: "desc" },
    ...(limit ? { take: limit } : {}),
  });
  return rows.filter((row): row is UndoneRow => row.undoneAt !== null && row.undoneBy !== null);
}

async function userNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const users = await db.user.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, name: true, email: true } });
  return new Map(users.map((user) => [user.id, user.name || user.email]));
}

/**
 * The undone records the top level of the timeline shows, each where its range starts:
 * not one a compaction made since covers again (it is history inside that block now),
 * and within what the page shows (`fromSeq` from `oldestSeq`, up to `upToSeq`).
 * The caller has checked ownership.
 */
export async function undoneTimelineItems(
  db: Db,
  conversationId: string,
  shown: { oldestSeq: number; upToSeq: number; covering: { fromSeq: number; toSeq: number }[] },
): Promise<TimelineItem[]> {
  const rows = (await undoneRows(db, conversationId)).filter(
    (row) =>
      row.fromSeq >= shown.oldestSeq &&
      row.fromSeq <= shown.upToSeq &&
      !shown.covering.some((c) => c.fromSeq <= row.fromSeq && row.fromSeq <= c.toSeq),
  );
  const names = await userNames(db, rows.map((row) => row.undoneBy));
  return rows.map((row) => ({
    type: "undone" as const,
    // Its merged records are active again: it holds none now.
    compaction: toCompactionView(row),
    undone: { at: row.undoneAt.toISOString(), by: names.get(row.undoneBy) ?? "a deleted user" },
  }));
}

/** Every undo of the conversation, newest first, for the Activity panel. The caller has checked ownership. */
export async function listUndone(db: Db, conversationId: string, limit = 100): Promise<UndoneView[]> {
  const rows = await undoneRows(db, conversationId, limit);
  const names = await userNames(db, rows.map((row) => row.undoneBy));
  return rows.map((row) => ({
    compactionId: row.id,
    kind: row.kind,
    level: row.level,
    fromSeq: row.fromSeq,
    toSeq: row.toSeq,
    title: toCompactionView(row).title,
    at: row.undoneAt.toISOString(),
    by: names.get(row.undoneBy) ?? "a deleted user",
  }));
}
