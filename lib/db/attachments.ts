// Attachments: the files a user uploads for a message. Every query names the owner; an
// attachment of another user's (or of another conversation) is "not found" like an unknown id.
import type { Db } from "./client.ts";
import type { Prisma } from "./generated/client.ts";
import { assertOwnsConversation } from "./conversations.ts";
import { notFound } from "../errors.ts";

/** What the chat shows of an attachment (never its bytes). */
export type AttachmentView = {
  id: string;
  conversationId: string;
  messageId: string | null;
  name: string;
  mediaType: string;
  size: number;
  tokenCount: number;
  contentStart: number | null;
  position: number;
};

const VIEW_COLUMNS = {
  id: true,
  conversationId: true,
  messageId: true,
  name: true,
  mediaType: true,
  size: true,
  tokenCount: true,
  contentStart: true,
  position: true,
} as const;

export type NewAttachment = { name: string; mediaType: string; bytes: Uint8Array; text: string | null; tokenCount: number };

/** Unsent uploads are kept this long (a draft left in a tab), then deleted. */
export const UNSENT_TTL_MS = 24 * 60 * 60 * 1000;

/** Stores an upload (not yet on a message) in the user's conversation; not found for another user's. */
export async function createAttachment(db: Db, userId: string, conversationId: string, file: NewAttachment): Promise<AttachmentView> {
  await assertOwnsConversation(db, userId, conversationId);
  return db.attachment.create({
    data: {
      userId,
      conversationId,
      name: file.name,
      mediaType: file.mediaType,
      size: file.bytes.byteLength,
      bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) as Uint8Array<ArrayBuffer>,
      text: file.text,
      tokenCount: file.tokenCount,
    },
    select: VIEW_COLUMNS,
  });
}

/** The conversation's attachments that are on a message (what the chat view shows as chips). */
export async function listSentAttachments(db: Db, userId: string, conversationId: string): Promise<AttachmentView[]> {
  await assertOwnsConversation(db, userId, conversationId);
  return db.attachment.findMany({
    where: { userId, conversationId, messageId: { not: null } },
    select: VIEW_COLUMNS,
    orderBy: [{ messageId: "asc" }, { position: "asc" }],
  });
}

export type UnsentAttachment = AttachmentView & { text: string | null };

/**
 * The unsent uploads a message is about to carry, in the order given; not found when any
 * is unknown, another user's, of another conversation or already sent.
 */
export async function unsentAttachments(db: Db, userId: string, conversationId: string, ids: string[]): Promise<UnsentAttachment[]> {
  if (ids.length === 0) return [];
  const rows = await db.attachment.findMany({
    where: { id: { in: ids }, userId, conversationId, messageId: null },
    select: { ...VIEW_COLUMNS, text: true },
  });
  return ids.map((id) => {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row) throw notFound("attachment", id);
    return row;
  });
}

/** Ties uploads to the message that carries them, with where each one's block starts in its content. */
export async function attachToMessage(db: Db, userId: string, messageId: string, placed: { id: string; contentStart: number }[]): Promise<void> {
  await db.$transaction(
    placed.map((item, position) =>
      db.attachment.updateMany({ where: { id: item.id, userId, messageId: null }, data: { messageId, contentStart: item.contentStart, position } }),
    ),
  );
}

/** The files on one of the user's messages (never their bytes), in their order on it. */
export async function filesOnMessage(db: Db, userId: string, messageId: string) {
  return db.attachment.findMany({
    where: { userId, messageId },
    select: { id: true, name: true, mediaType: true, text: true, tokenCount: true },
    orderBy: { position: "asc" },
  });
}

/**
 * Copies files of the user's onto another message of the same conversation (an edited
 * version keeps the files still in its text), each with where its block starts there.
 * The bytes are copied inside the database, one statement, never read into the app: each
 * version then owns its rows outright, so deleting or exporting one never reaches the other.
 */
export async function copyFilesToMessage(
  tx: Prisma.TransactionClient,
  userId: string,
  messageId: string,
  placed: readonly { id: string; contentStart: number }[],
): Promise<number> {
  if (placed.length === 0) return 0;
  return tx.$executeRaw`
    INSERT INTO "Attachment" (id, "userId", "conversationId", "messageId", name, "mediaType", size, bytes, text, "tokenCount", "contentStart", position)
    SELECT gen_random_uuid()::text, a."userId", a."conversationId", m.id, a.name, a."mediaType", a.size, a.bytes, a.text, a."tokenCount",
           k."contentStart", (k.ord - 1)::int
    FROM unnest(${placed.map((file) => file.id)}::text[], ${placed.map((file) => file.contentStart)}::int[]) WITH ORDINALITY AS k(id, "contentStart", ord)
    JOIN "Attachment" a ON a.id = k.id AND a."userId" = ${userId}
    JOIN "Message" m ON m.id = ${messageId} AND m."conversationId" = a."conversationId"`;
}

export type AttachmentFile = { name: string; mediaType: string; bytes: Uint8Array };

/** The original file, for download; not found for another user's. */
export async function attachmentFile(db: Db, userId: string, id: string): Promise<AttachmentFile> {
  const row = await db.attachment.findFirst({ where: { id, userId }, select: { name: true, mediaType: true, bytes: true } });
  if (!row) throw notFound("attachment", id);
  return row;
}

/** A file on a sent message of this one conversation (what a shared link shows); not found for any other. */
export async function sentAttachmentFileIn(db: Db, userId: string, conversationId: string, id: string): Promise<AttachmentFile> {
  const row = await db.attachment.findFirst({ where: { id, userId, conversationId, messageId: { not: null } }, select: { name: true, mediaType: true, bytes: true } });
  if (!row) throw notFound("attachment", id);
  return row;
}

/** Removes an unsent upload (the chip's ×); a sent one stays with its message. */
export async function deleteUnsentAttachment(db: Db, userId: string, id: string): Promise<void> {
  const { count } = await db.attachment.deleteMany({ where: { id, userId, messageId: null } });
  if (count === 0) throw notFound("attachment", id);
}

/** Deletes uploads never sent within UNSENT_TTL_MS (of every user): returns how many. */
export async function deleteStaleUploads(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.attachment.deleteMany({ where: { messageId: null, createdAt: { lt: new Date(now.getTime() - UNSENT_TTL_MS) } } });
  return count;
}

export type SentImage = { id: string; seq: number; mediaType: string; bytes: Uint8Array };

/**
 * The images on the conversation's messages at `seqs`, with their bytes, in message and
 * file order: what a request to a model that takes images carries beside those messages' text.
 */
export async function imagesOnMessages(db: Db, userId: string, conversationId: string, seqs: readonly number[]): Promise<SentImage[]> {
  if (seqs.length === 0) return [];
  const rows = await db.attachment.findMany({
    where: { userId, conversationId, mediaType: { startsWith: "image/" }, message: { seq: { in: [...seqs] } } },
    select: { id: true, mediaType: true, bytes: true, position: true, message: { select: { seq: true } } },
  });
  return rows
    .flatMap((row) => (row.message ? [{ id: row.id, seq: row.message.seq, position: row.position, mediaType: row.mediaType, bytes: row.bytes }] : []))
    .sort((a, b) => a.seq - b.seq || a.position - b.position)
    .map(({ id, seq, mediaType, bytes }) => ({ id, seq, mediaType, bytes }));
}
