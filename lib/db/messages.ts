import type { Db } from "./client.ts";
import { Prisma, type Message } from "./generated/client.ts";
import { toMessageView, toolCallsOf } from "./mappers.ts";
import { draftData, type MessageDraft, type PlainDraft } from "./message-drafts.ts";
import type { StoredMessages } from "./context-cache.ts";
import { storeInOneStatement } from "./turn-lease.ts";
import { copyFilesToMessage } from "./attachments.ts";
import { AppError, notFound } from "../errors.ts";
import type { CallUsage } from "../compression/types";
import type { MessageView } from "../views";

/**
 * A tool result answers a call of the newest assistant message that made calls, once.
 * Anything else (an unknown id, a second result for the same call) would make the next
 * request invalid for the API, so it is refused here, under the conversation's lock.
 */
async function checkToolResults(tx: Prisma.TransactionClient, conversationId: string, drafts: MessageDraft[]): Promise<void> {
  const results = drafts.filter((draft) => draft.role === "tool");
  if (results.length === 0) return;
  const caller = await tx.message.findFirst({
    where: { conversationId, role: "assistant", rewoundAt: null, NOT: { toolCalls: { equals: Prisma.DbNull } } },
    orderBy: { seq: "desc" },
    select: { seq: true, toolCalls: true },
  });
  const pending = new Set(caller ? toolCallsOf(caller).map((call) => call.id) : []);
  if (caller) {
    const answered = await tx.message.findMany({ where: { conversationId, role: "tool", rewoundAt: null, seq: { gt: caller.seq } }, select: { toolCallId: true } });
    for (const row of answered) if (row.toolCallId) pending.delete(row.toolCallId);
  }
  for (const result of results) {
    if (!pending.has(result.toolCallId)) {
      throw new AppError("conflict", `A result for tool call "${result.toolCallId}" was refused: no call with that id is waiting for one.`);
    }
    pending.delete(result.toolCallId);
  }
}

/**
 * A reply (or a user message) stored in one statement, with the conversation row as
 * that statement left it: the turn keeps what it stores in its copy of the context
 * (lib/db/context-cache.ts keepStored).
 */
export async function appendReply(db: Db, userId: string, conversationId: string, draft: PlainDraft): Promise<StoredMessages> {
  const stored = await storeInOneStatement(db, userId, conversationId, [draft]);
  if (!stored) throw notFound("conversation", conversationId);
  return stored;
}

/**
 * Appends messages with strictly increasing sequence numbers. The counter lives on the
 * conversation row; bumping it with UPDATE ... RETURNING takes that row's lock, so
 * concurrent writers to one conversation are serialized and never collide.
 */
export async function appendMessages(db: Db, userId: string, conversationId: string, drafts: MessageDraft[]): Promise<MessageView[]> {
  return (await appendMessageRows(db, userId, conversationId, drafts)).map(toMessageView);
}

async function appendMessageRows(db: Db, userId: string, conversationId: string, drafts: MessageDraft[]): Promise<Message[]> {
  if (drafts.length === 0) return [];
  // Nothing to check against pending tool calls: one statement instead of a transaction's four.
  if (drafts.every((draft): draft is PlainDraft => draft.role !== "tool")) {
    const stored = await storeInOneStatement(db, userId, conversationId, drafts);
    if (!stored) throw notFound("conversation", conversationId);
    return stored.rows;
  }
  return db.$transaction((tx) => appendRowsInTx(tx, userId, conversationId, drafts));
}

/**
 * A user message stored with copies of files another message of the conversation carries
 * (an edited version keeps the files still in its text): one transaction, so the version
 * is never stored without them.
 */
export async function appendWithFiles(
  db: Db,
  userId: string,
  conversationId: string,
  draft: Extract<MessageDraft, { role: "user" }>,
  files: readonly { id: string; contentStart: number }[],
): Promise<MessageView> {
  if (files.length === 0) return (await appendMessages(db, userId, conversationId, [draft]))[0]!;
  const row = await db.$transaction(async (tx) => {
    const [stored] = await appendRowsInTx(tx, userId, conversationId, [draft]);
    await copyFilesToMessage(tx, userId, stored!.id, files);
    return stored!;
  });
  return toMessageView(row);
}

async function appendRowsInTx(tx: Prisma.TransactionClient, userId: string, conversationId: string, drafts: MessageDraft[]): Promise<Message[]> {
  if (drafts.length === 0) return [];
  const bumped = await tx.$queryRaw<{ lastSeq: number }[]>`
    UPDATE "Conversation" SET "lastSeq" = "lastSeq" + ${drafts.length}, "updatedAt" = now()
    WHERE id = ${conversationId} AND "userId" = ${userId} RETURNING "lastSeq"`;
  const lastSeq = bumped[0]?.lastSeq;
  if (lastSeq == null) throw notFound("conversation", conversationId);
  await checkToolResults(tx, conversationId, drafts);
  const firstSeq = lastSeq - drafts.length + 1;
  const rows = await tx.message.createManyAndReturn({
    data: drafts.map((draft, index) => draftData(conversationId, firstSeq + index, draft)),
  });
  return rows.sort((a, b) => a.seq - b.seq);
}

/**
 * Takes the conversation row's lock (false: not the user's conversation). A statement
 * that changes messages moves the row's contextVersion (a database trigger), so it must
 * come after this: taking the row first, like every other writer, never deadlocks.
 */
export async function lockConversationRow(tx: Prisma.TransactionClient, userId: string, conversationId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Conversation" WHERE id = ${conversationId} AND "userId" = ${userId} FOR UPDATE`;
  return rows.length > 0;
}

export async function setPinned(db: Db, userId: string, conversationId: string, seq: number, pinned: boolean): Promise<MessageView> {
  const row = await db.$transaction(async (tx) => {
    if (!(await lockConversationRow(tx, userId, conversationId))) return null;
    const { count } = await tx.message.updateMany({ where: { conversationId, seq, rewoundAt: null }, data: { pinned } });
    return count === 0 ? null : tx.message.findUniqueOrThrow({ where: { conversationId_seq: { conversationId, seq } } });
  });
  if (!row) throw notFound("message", `${conversationId}#${seq}`);
  return toMessageView(row);
}

/**
 * Why the model gave no reply to user message `seq` (null: it has one now), so that a
 * reload still says why the message waits for Retry. One statement, the owner's only.
 */
export async function noteUnanswered(db: Db, userId: string, conversationId: string, seq: number, error: string | null): Promise<void> {
  await db.message.updateMany({ where: { conversationId, seq, role: "user", conversation: { userId } }, data: { error } });
}

export async function getMessage(db: Db, userId: string, conversationId: string, seq: number): Promise<MessageView> {
  const row = await db.message.findFirst({ where: { conversationId, seq, conversation: { userId } } });
  if (!row || row.rewoundAt) throw notFound("message", `${conversationId}#${seq}`);
  return toMessageView(row);
}

/** Sequence numbers of the last `count` visible user messages, oldest first. */
export async function lastUserSeqs(db: Db, userId: string, conversationId: string, count: number): Promise<number[]> {
  const rows = await db.message.findMany({
    where: { conversationId, conversation: { userId }, role: "user", rewoundAt: null },
    orderBy: { seq: "desc" },
    take: count,
    select: { seq: true },
  });
  return rows.map((row) => row.seq).reverse();
}

/** The newest shown message: what "Continue" extends. */
export async function lastShownMessage(db: Db, userId: string, conversationId: string): Promise<Message | null> {
  return db.message.findFirst({ where: { conversationId, rewoundAt: null, conversation: { userId } }, orderBy: { seq: "desc" } });
}

export type ReplyExtension = {
  text: string;
  /** The continuation's own thinking: it follows the reply's, which it does not replace. */
  reasoning: string;
  status: "complete" | "stopped";
  usage?: CallUsage;
  requestTokens: number;
};

/**
 * Appends a continuation to a stored reply (after Stop, "Continue"): the text joins the
 * reply, the usage becomes the continuation call's (the calibration pairs a request with
 * its own prompt count), and the history version moves so open tabs and prepared
 * compactions see the change. One transaction, under the conversation's row lock.
 */
export async function extendReply(
  db: Db,
  userId: string,
  conversationId: string,
  messageId: string,
  extension: ReplyExtension,
  countTokens: (content: string) => number | Promise<number>,
): Promise<MessageView> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Conversation" SET "historyVersion" = "historyVersion" + 1, "updatedAt" = now()
      WHERE id = ${conversationId} AND "userId" = ${userId} RETURNING id`;
    if (locked.length === 0) throw notFound("conversation", conversationId);
    const row = await tx.message.findFirst({ where: { id: messageId, conversationId, rewoundAt: null } });
    if (!row) throw notFound("message", messageId);
    const content = row.content + extension.text;
    const updated = await tx.message.update({
      where: { id: row.id },
      data: {
        content,
        tokenCount: await countTokens(content),
        reasoning: [row.reasoning, extension.reasoning].filter(Boolean).join("\n\n") || null,
        status: extension.status,
        requestTokens: extension.requestTokens,
        ...(extension.usage
          ? {
              promptTokens: extension.usage.promptTokens,
              cachedTokens: extension.usage.cachedTokens,
              completionTokens: (row.completionTokens ?? 0) + extension.usage.completionTokens,
            }
          : {}),
      },
    });
    return toMessageView(updated);
  });
}
