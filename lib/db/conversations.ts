import type { Db } from "./client.ts";
import { toConversationView } from "./mappers.ts";
import { notFound } from "../errors.ts";
import type { ConversationSummary, ConversationView } from "../views";

export async function createConversation(
  db: Db,
  input: { title: string; model: string; systemPrompt: string },
): Promise<ConversationView> {
  const row = await db.conversation.create({ data: input });
  return toConversationView(row, 0);
}

export async function listConversations(db: Db, limit = 200): Promise<ConversationSummary[]> {
  const rows = await db.conversation.findMany({ orderBy: { updatedAt: "desc" }, take: limit });
  // lastSeq counts every message ever written; cheap and good enough for a list.
  return rows.map((row) => toConversationView(row, row.lastSeq));
}

export async function getConversation(db: Db, id: string): Promise<ConversationView> {
  const row = await db.conversation.findUnique({ where: { id } });
  if (!row) throw notFound("conversation", id);
  const messageCount = await db.message.count({ where: { conversationId: id, rewoundAt: null } });
  return toConversationView(row, messageCount);
}

export async function updateConversation(
  db: Db,
  id: string,
  patch: { title?: string; model?: string; systemPrompt?: string },
): Promise<ConversationView> {
  const found = await db.conversation.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw notFound("conversation", id);
  const row = await db.conversation.update({ where: { id }, data: patch });
  return toConversationView(row, row.lastSeq);
}

export async function deleteConversation(db: Db, id: string): Promise<void> {
  const { count } = await db.conversation.deleteMany({ where: { id } });
  if (count === 0) throw notFound("conversation", id);
}
