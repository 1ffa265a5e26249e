// Every query here names the owner: a conversation of another user is answered exactly
// like one that does not exist, so ids cannot be probed.
import type { Db } from "./client.ts";
import type { Prisma } from "./generated/client.ts";
import { toConversationView } from "./mappers.ts";
import { notFound } from "../errors.ts";
import type { ConversationSummary, ConversationView } from "../views";

type Reader = Pick<Db, "conversation">;

/** The `where` of one owned conversation; conversation-scoped queries filter through it. */
export function ownedConversation(userId: string, conversationId: string): Prisma.ConversationWhereInput {
  return { id: conversationId, userId };
}

/** Throws not_found unless `userId` owns the conversation. */
export async function assertOwnsConversation(db: Reader, userId: string, conversationId: string): Promise<void> {
  const found = await db.conversation.findFirst({ where: ownedConversation(userId, conversationId), select: { id: true } });
  if (!found) throw notFound("conversation", conversationId);
}

export async function createConversation(
  db: Db,
  userId: string,
  input: { title: string; model: string; systemPrompt: string },
): Promise<ConversationView> {
  const row = await db.conversation.create({ data: { ...input, userId } });
  return toConversationView(row, 0);
}

export async function listConversations(db: Db, userId: string, limit = 200): Promise<ConversationSummary[]> {
  const rows = await db.conversation.findMany({ where: { userId }, orderBy: { updatedAt: "desc" }, take: limit });
  // lastSeq counts every message ever written; cheap and good enough for a list.
  return rows.map((row) => toConversationView(row, row.lastSeq));
}

export async function getConversation(db: Db, userId: string, id: string): Promise<ConversationView> {
  const row = await db.conversation.findFirst({ where: ownedConversation(userId, id) });
  if (!row) throw notFound("conversation", id);
  const messageCount = await db.message.count({ where: { conversationId: id, rewoundAt: null } });
  const view = toConversationView(row, messageCount);
  if (!view.source) return view;
  // The source's title, if it still exists and is still the user's.
  const source = await db.conversation.findFirst({ where: ownedConversation(userId, view.source.conversationId), select: { title: true } });
  return { ...view, source: { ...view.source, title: source?.title ?? null } };
}

export async function updateConversation(
  db: Db,
  userId: string,
  id: string,
  patch: { title?: string; model?: string; systemPrompt?: string },
): Promise<ConversationView> {
  const { count } = await db.conversation.updateMany({ where: ownedConversation(userId, id), data: patch });
  if (count === 0) throw notFound("conversation", id);
  const row = await db.conversation.findUniqueOrThrow({ where: { id } });
  return toConversationView(row, row.lastSeq);
}

export async function deleteConversation(db: Db, userId: string, id: string): Promise<void> {
  const { count } = await db.conversation.deleteMany({ where: ownedConversation(userId, id) });
  if (count === 0) throw notFound("conversation", id);
}
