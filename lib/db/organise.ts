// Organising a user's conversations: pin to the top, archive, rename, and the sidebar's
// pages. Every statement names the owner, so another user's id is "not found" like an
// unknown one. Pinning, archiving and renaming go through plain SQL so that they leave
// updatedAt alone: the sidebar's date groups follow the conversation's activity, not
// its housekeeping.
import type { Db } from "./client.ts";
import type { Conversation, Prisma } from "./generated/client.ts";
import { toConversationView } from "./mappers.ts";
import { AppError, notFound } from "../errors.ts";
import type { ConversationPage, ConversationSummary } from "../views";

/** The most conversations one user can pin: the pinned group is loaded whole. */
export const MAX_PINNED = 100;

const summaryOf = (row: Conversation): ConversationSummary => {
  const { systemPrompt: _prompt, createdAt: _created, source: _source, ...summary } = toConversationView(row, row.lastSeq - row.hiddenMessageCount);
  return summary;
};

function changed(count: number, id: string): void {
  if (count === 0) throw notFound("conversation", id);
}

export async function setConversationPinned(db: Db, userId: string, id: string, pinned: boolean): Promise<void> {
  if (!pinned) {
    changed(await db.$executeRaw`UPDATE "Conversation" SET "pinnedAt" = NULL WHERE id = ${id} AND "userId" = ${userId}`, id);
    return;
  }
  await db.$transaction(async (tx) => {
    // The owner's row lock first, so two pins at once cannot both pass the count.
    const rows = await tx.$queryRaw<{ pinnedAt: Date | null }[]>`
      SELECT "pinnedAt" FROM "Conversation" WHERE id = ${id} AND "userId" = ${userId} FOR UPDATE`;
    if (rows.length === 0) throw notFound("conversation", id);
    if (rows[0]!.pinnedAt) return;
    const pinnedCount = await tx.conversation.count({ where: { userId, pinnedAt: { not: null }, archivedAt: null } });
    if (pinnedCount >= MAX_PINNED) {
      throw new AppError("conflict", `You can pin at most ${MAX_PINNED} conversations; unpin one first.`);
    }
    // Archived conversations come back unarchived when pinned: a pinned one is in the main list by definition.
    await tx.$executeRaw`UPDATE "Conversation" SET "pinnedAt" = now(), "archivedAt" = NULL WHERE id = ${id}`;
  });
}

/** Archiving unpins: the archive is out of the way, the pinned group is in the way on purpose. */
export async function setConversationArchived(db: Db, userId: string, id: string, archived: boolean): Promise<void> {
  const count = archived
    ? await db.$executeRaw`UPDATE "Conversation" SET "archivedAt" = COALESCE("archivedAt", now()), "pinnedAt" = NULL WHERE id = ${id} AND "userId" = ${userId}`
    : await db.$executeRaw`UPDATE "Conversation" SET "archivedAt" = NULL WHERE id = ${id} AND "userId" = ${userId}`;
  changed(count, id);
}

export async function renameConversation(db: Db, userId: string, id: string, title: string): Promise<void> {
  changed(await db.$executeRaw`UPDATE "Conversation" SET title = ${title} WHERE id = ${id} AND "userId" = ${userId}`, id);
}

/** Where a page ends: the last row's updatedAt and id (the list's order, so ties are broken the same way). */
export type PageCursor = { updatedAt: Date; id: string };

export const encodeCursor = (row: { updatedAt: string; id: string }) => `${row.updatedAt}_${row.id}`;

/**
 * One page of the sidebar, newest activity first: the main list (unarchived, pinned ones
 * apart, with the pinned group on the first page) or the archive. Keyset pagination, so
 * page 50 of 10,000 conversations costs what page 1 does (index userId, archivedAt,
 * updatedAt, id).
 */
export async function listConversationPage(
  db: Db,
  userId: string,
  options: { archived: boolean; after: PageCursor | null; limit: number },
): Promise<ConversationPage> {
  const after: Prisma.ConversationWhereInput = options.after
    ? { OR: [{ updatedAt: { lt: options.after.updatedAt } }, { updatedAt: options.after.updatedAt, id: { lt: options.after.id } }] }
    : {};
  const where: Prisma.ConversationWhereInput = options.archived
    ? { userId, archivedAt: { not: null }, ...after }
    : { userId, archivedAt: null, pinnedAt: null, ...after };
  const [rows, pinned] = await Promise.all([
    db.conversation.findMany({ where, orderBy: [{ updatedAt: "desc" }, { id: "desc" }], take: options.limit + 1 }),
    options.archived || options.after
      ? Promise.resolve([])
      : db.conversation.findMany({ where: { userId, archivedAt: null, pinnedAt: { not: null } }, orderBy: [{ pinnedAt: "desc" }, { id: "desc" }], take: MAX_PINNED }),
  ]);
  const items = rows.slice(0, options.limit).map(summaryOf);
  const last = items.at(-1);
  return { pinned: pinned.map(summaryOf), items, next: rows.length > options.limit && last ? encodeCursor(last) : null };
}
