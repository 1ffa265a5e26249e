// Read-only share links (lib/chat/share-ops.ts decides who may do what). A link row holds
// the SHA-256 of its token only: whoever reads the table cannot open a conversation.
import type { Db } from "./client.ts";
import { AppError } from "../errors.ts";
import { ownedConversation } from "./conversations.ts";

export type ShareLinkView = {
  id: string;
  createdAt: string;
  /** Null: never expires. */
  expiresAt: string | null;
  lastOpenedAt: string | null;
  expired: boolean;
};

/** What a live token opens: one conversation, read as its owner would read it. */
export type SharedTarget = { linkId: string; conversationId: string; ownerId: string; title: string };

/** The answer for anything a link cannot reach: one message whatever the reason (unknown, revoked, expired, another conversation's id). */
export function sharedNotFound(): AppError {
  return new AppError("not_found", "This shared link does not exist, was revoked or has expired.");
}

const conversationNotFound = (id: string) => new AppError("not_found", `No conversation with id "${id}".`);

function toView(row: { id: string; createdAt: Date; expiresAt: Date | null; lastOpenedAt: Date | null }, now: Date): ShareLinkView {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastOpenedAt: row.lastOpenedAt?.toISOString() ?? null,
    expired: row.expiresAt !== null && row.expiresAt <= now,
  };
}

const live = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/**
 * Stores a link for a conversation the user owns, in one transaction with the count it is
 * bounded by (two concurrent creations cannot both pass it). Expired links of the
 * conversation are dropped on the way: they open nothing and would only pile up.
 */
export async function createShareLink(
  db: Db,
  userId: string,
  conversationId: string,
  link: { tokenHash: string; expiresAt: Date | null },
  maxLive: number,
): Promise<ShareLinkView> {
  return db.$transaction(async (tx) => {
    // Locks the conversation row: concurrent creations on it take turns at the count.
    const owned = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Conversation" WHERE id = ${conversationId} AND "userId" = ${userId} FOR UPDATE`;
    if (owned.length === 0) throw conversationNotFound(conversationId);
    const now = new Date();
    await tx.shareLink.deleteMany({ where: { conversationId, expiresAt: { lte: now } } });
    const count = await tx.shareLink.count({ where: { conversationId } });
    if (count >= maxLive) {
      throw new AppError("conflict", `This conversation already has ${maxLive} share links. Revoke one before creating another.`);
    }
    const row = await tx.shareLink.create({ data: { conversationId, tokenHash: link.tokenHash, expiresAt: link.expiresAt } });
    return toView(row, now);
  });
}

/** The conversation's links, newest first (expired ones included, marked). */
export async function listShareLinks(db: Db, userId: string, conversationId: string): Promise<ShareLinkView[]> {
  const owned = await db.conversation.findFirst({ where: ownedConversation(userId, conversationId), select: { id: true } });
  if (!owned) throw conversationNotFound(conversationId);
  const rows = await db.shareLink.findMany({ where: { conversationId }, orderBy: { createdAt: "desc" } });
  const now = new Date();
  return rows.map((row) => toView(row, now));
}

/** Deletes the link: its token opens nothing from the next request on. */
export async function revokeShareLink(db: Db, userId: string, conversationId: string, linkId: string): Promise<void> {
  const { count } = await db.shareLink.deleteMany({ where: { id: linkId, conversationId, conversation: { userId } } });
  if (count === 0) throw new AppError("not_found", `No share link with id "${linkId}" on this conversation.`);
}

/** The conversation a live (unexpired, unrevoked) token opens, or null. */
export async function findSharedTarget(db: Db, tokenHash: string): Promise<SharedTarget | null> {
  const row = await db.shareLink.findFirst({
    where: { tokenHash, ...live(new Date()), conversation: { userId: { not: null } } },
    select: { id: true, conversationId: true, conversation: { select: { userId: true, title: true } } },
  });
  if (!row?.conversation.userId) return null;
  return { linkId: row.id, conversationId: row.conversationId, ownerId: row.conversation.userId, title: row.conversation.title };
}

/** Notes that the link was opened (the page, not each read behind it). */
export async function markShareOpened(db: Db, linkId: string): Promise<void> {
  await db.shareLink.updateMany({ where: { id: linkId }, data: { lastOpenedAt: new Date() } });
}

/** Whether the compaction belongs to the conversation: a link reaches no other conversation's rows, even by their ids. */
export async function compactionInConversation(db: Db, userId: string, conversationId: string, compactionId: string): Promise<boolean> {
  return (await db.compaction.count({ where: { id: compactionId, conversationId, conversation: { userId } } })) > 0;
}
