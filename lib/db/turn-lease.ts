// The turn gate: at most one turn runs in a conversation at a time, whichever server
// process runs it. The lease lives on the conversation row (turnLeaseId, turnLeaseUntil,
// the database's clock), is taken in the same transaction that stores the turn's user
// message, renewed while the turn runs and cleared when it ends. A process that dies
// mid-turn leaves a lease that expires by itself.
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";
import { nameAfterFirstMessage } from "./conversations.ts";
import { appendMessagesInTx, type MessageDraft } from "./messages.ts";
import { AppError, notFound } from "../errors.ts";
import type { MessageView } from "../views";

export const TURN_BUSY_MESSAGE = "A reply is still being written in this conversation. Wait for it to finish (or stop it), then send again.";

/** Refused because another turn holds the conversation (HTTP 409, code "busy"). */
export function turnBusy(): AppError {
  return new AppError("busy", TURN_BUSY_MESSAGE);
}

async function claim(tx: Prisma.TransactionClient, userId: string, conversationId: string, leaseId: string, leaseMs: number): Promise<void> {
  // Row lock on the conversation (UPDATE), then the check on the locked row: two
  // claims at once are serialized and the second sees the first one's lease.
  const taken = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "Conversation"
    SET "turnLeaseId" = ${leaseId}, "turnLeaseUntil" = now() + make_interval(secs => ${leaseMs / 1000}::double precision)
    WHERE id = ${conversationId} AND "userId" = ${userId}
      AND ("turnLeaseUntil" IS NULL OR "turnLeaseUntil" < now())
    RETURNING id`;
  if (taken.length > 0) return;
  const exists = await tx.conversation.findFirst({ where: { id: conversationId, userId }, select: { id: true } });
  if (!exists) throw notFound("conversation", conversationId);
  throw turnBusy();
}

/**
 * Takes the conversation's turn lease and, in the same transaction, stores the user's
 * message (when the turn has one) and names the conversation after it when it is the
 * first (`title`: the new name, else null). Throws "busy" while another turn holds a
 * lease that has not expired.
 */
export async function takeTurnLease(
  db: Db,
  userId: string,
  conversationId: string,
  options: { leaseId: string; leaseMs: number; userMessage?: MessageDraft },
): Promise<{ userMessage: MessageView | null; title: string | null }> {
  return db.$transaction(async (tx) => {
    await claim(tx, userId, conversationId, options.leaseId, options.leaseMs);
    if (!options.userMessage) return { userMessage: null, title: null };
    const [stored] = await appendMessagesInTx(tx, userId, conversationId, [options.userMessage]);
    if (!stored) return { userMessage: null, title: null };
    return { userMessage: stored, title: await nameAfterFirstMessage(tx, conversationId, stored) };
  });
}

/** Extends a lease this turn still holds; false when it was lost (expired and taken by another turn). */
export async function renewTurnLease(db: Db, conversationId: string, leaseId: string, leaseMs: number): Promise<boolean> {
  const renewed = await db.$executeRaw`
    UPDATE "Conversation" SET "turnLeaseUntil" = now() + make_interval(secs => ${leaseMs / 1000}::double precision)
    WHERE id = ${conversationId} AND "turnLeaseId" = ${leaseId}`;
  return renewed > 0;
}

export async function releaseTurnLease(db: Db, conversationId: string, leaseId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "Conversation" SET "turnLeaseId" = NULL, "turnLeaseUntil" = NULL
    WHERE id = ${conversationId} AND "turnLeaseId" = ${leaseId}`;
}

export type ConversationChangeState = {
  /** Changes whenever a message is stored, the history is rewound or a compaction is stored. */
  version: string;
  /** A turn holds the conversation (in this tab, another one, or another process). */
  turnRunning: boolean;
};

/**
 * A cheap summary of what can change under an open tab: the sequence counter, the
 * history version, the compactions and pins. Tabs poll it and reload the timeline
 * only when it moved.
 */
export async function conversationChangeState(db: Db, userId: string, conversationId: string): Promise<ConversationChangeState> {
  const rows = await db.$queryRaw<{ lastSeq: number; historyVersion: number; compactions: bigint; pins: bigint; running: boolean }[]>`
    SELECT c."lastSeq", c."historyVersion",
      (SELECT count(*) + count(k."undoneAt") FROM "Compaction" k WHERE k."conversationId" = c.id) AS compactions,
      (SELECT count(*) FROM "Message" m WHERE m."conversationId" = c.id AND m.pinned) AS pins,
      (c."turnLeaseUntil" IS NOT NULL AND c."turnLeaseUntil" > now()) AS running
    FROM "Conversation" c WHERE c.id = ${conversationId} AND c."userId" = ${userId}`;
  const row = rows[0];
  if (!row) throw notFound("conversation", conversationId);
  return { version: `${row.lastSeq}.${row.historyVersion}.${row.compactions}.${row.pins}`, turnRunning: row.running };
}
