// Every query here names the owner: a conversation of another user is answered exactly
// like one that does not exist, so ids cannot be probed.
import type { Db } from "./client.ts";
import type { Conversation, Prisma } from "./generated/client.ts";
import { toConversationView } from "./mappers.ts";
import { notFound } from "../errors.ts";
import { titleFromMessage } from "../conversation-title.ts";
import type { ConversationSummary, ConversationView } from "../views";

type Reader = Pick<Db, "conversation">;

/** What a conversation is called until its first message names it. */
export const DEFAULT_TITLE = "New conversation";

/**
 * Names a conversation still called DEFAULT_TITLE after its first message (seq 1: nothing
 * was written before it), from the message's first 60 characters on one line. Runs in the
 * transaction that stores the message, so the name and the message appear together.
 * Returns the new title, or null when the conversation keeps the one it has.
 */
export async function nameAfterFirstMessage(
  tx: Reader,
  userId: string,
  conversationId: string,
  message: { seq: number; content: string },
): Promise<string | null> {
  if (message.seq !== 1) return null;
  const title = titleFromMessage(message.content);
  if (!title) return null;
  const { count } = await tx.conversation.updateMany({ where: { ...ownedConversation(userId, conversationId), title: DEFAULT_TITLE }, data: { title } });
  return count > 0 ? title : null;
}

/** The `where` of one owned conversation; conversation-scoped queries filter through it. */
export function ownedConversation(userId: string, conversationId: string): Prisma.ConversationWhereInput {
  return { id: conversationId, userId };
}

/** Throws not_found unless `userId` owns the conversation. */
export async function assertOwnsConversation(db: Reader, userId: string, conversationId: string): Promise<void> {
  const found = await db.conversation.findFirst({ where: ownedConversation(userId, conversationId), select: { id: true } });
  if (!found) throw notFound("conversation", conversationId);
}

/** The messages it shows: every one written (sequence numbers have no gaps) but the hidden ones. */
const toCountedView = (row: Conversation): ConversationView => toConversationView(row, row.lastSeq - row.hiddenMessageCount);

export async function createConversation(
  db: Db,
  userId: string,
  input: { title: string; model: string; systemPrompt: string; temperature?: number | null },
): Promise<ConversationView> {
  const row = await db.conversation.create({ data: { ...input, userId } });
  return toConversationView(row, 0);
}

export async function listConversations(db: Db, userId: string, limit = 200): Promise<ConversationSummary[]> {
  const rows = await db.conversation.findMany({ where: { userId }, orderBy: { updatedAt: "desc" }, take: limit });
  return rows.map(toCountedView);
}

export async function getConversation(db: Db, userId: string, id: string): Promise<ConversationView> {
  const row = await db.conversation.findFirst({ where: ownedConversation(userId, id) });
  if (!row) throw notFound("conversation", id);
  const view = toCountedView(row);
  if (!view.source) return view;
  // The source's title, if it still exists and is still the user's.
  const source = await db.conversation.findFirst({ where: ownedConversation(userId, view.source.conversationId), select: { title: true } });
  return { ...view, source: { ...view.source, title: source?.title ?? null } };
}

export async function updateConversation(
  db: Db,
  userId: string,
  id: string,
  patch: { title?: string | undefined; model?: string | undefined; systemPrompt?: string | undefined },
): Promise<ConversationView> {
  // Only what the patch names changes (an absent field is not a reset).
  const data = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as { [K in keyof typeof patch]?: string };
  const { count } = await db.conversation.updateMany({ where: ownedConversation(userId, id), data });
  if (count === 0) throw notFound("conversation", id);
  const row = await db.conversation.findUniqueOrThrow({ where: { id } });
  return toCountedView(row);
}

export async function deleteConversation(db: Db, userId: string, id: string): Promise<void> {
  const { count } = await db.conversation.deleteMany({ where: ownedConversation(userId, id) });
  if (count === 0) throw notFound("conversation", id);
}
