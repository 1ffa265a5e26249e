// The turn gate: at most one turn runs in a conversation at a time, whichever server
// process runs it. The lease lives on the conversation row (turnLeaseId, turnLeaseUntil,
// the database's clock), is taken in the statement that stores the turn's user message,
// renewed while the turn runs and cleared with the final reply (or when the turn ends
// otherwise). A process that dies mid-turn leaves a lease that expires by itself.
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";
import { nameAfterFirstMessage } from "./conversations.ts";
import { appendWithRowChange, type ConversationRowChange, type MessageDraft } from "./messages.ts";
import { toMessageView } from "./mappers.ts";
import type { ConversationHead } from "./transcript.ts";
import { resolveLayers, type ResolvedSettings } from "../settings-layers";
import { bucketState, countEventSql, type Bucket } from "./rate-limit.ts";
import { AppError, notFound } from "../errors.ts";
import type { MessageView } from "../views";

export const TURN_BUSY_MESSAGE = "A reply is still being written in this conversation. Wait for it to finish (or stop it), then send again.";

/** Refused because another turn holds the conversation (HTTP 409, code "busy"). */
export function turnBusy(): AppError {
  return new AppError("busy", TURN_BUSY_MESSAGE);
}

const leaseFree = Prisma.sql`AND ("turnLeaseUntil" IS NULL OR "turnLeaseUntil" < now())`;

function leaseUntil(leaseMs: number): Prisma.Sql {
  return Prisma.sql`now() + make_interval(secs => ${leaseMs / 1000}::double precision)`;
}

/** A counter the claim counts against, and the error when it is over. */
export type ClaimBucket = Bucket & { refused: (retryAfterSeconds: number) => AppError };

/**
 * Why a claim took no row: the conversation is not the user's (404), the send count
 * was over its limit (the bucket's error), or another turn holds it (409).
 */
async function refusal(db: Db, userId: string, conversationId: string, bucket?: ClaimBucket): Promise<AppError> {
  const exists = await db.conversation.findFirst({ where: { id: conversationId, userId }, select: { id: true } });
  if (!exists) return notFound("conversation", conversationId);
  if (bucket) {
    const state = await bucketState(db, bucket);
    if (!state.allowed) return bucket.refused(state.retryAfterSeconds);
  }
  return turnBusy();
}

/**
 * Takes the conversation's turn lease and, in the same statement, stores the user's
 * message (when the turn has one) and counts it against `countAgainst` (refused, storing
 * nothing, when over). Throws "busy" while another turn holds a lease that
 * has not expired. One statement is atomic and takes the conversation row's lock, so two
 * claims at once are serialized and the second sees the first one's lease. A first
 * message also names the conversation (`title`: the new name, else null). With a
 * message, the statement also returns what the turn starts from: the conversation row
 * (`head`) and its settings as they are now (null without one).
 */
export async function takeTurnLease(
  db: Db,
  userId: string,
  conversationId: string,
  // titleFrom: what a first message names the conversation from when that is not its content (the typed text of a message with files).
  options: { leaseId: string; leaseMs: number; userMessage?: MessageDraft; countAgainst?: ClaimBucket; titleFrom?: string },
): Promise<{ userMessage: MessageView | null; title: string | null; head: ConversationHead | null; settings: ResolvedSettings | null }> {
  const { leaseId, leaseMs, userMessage, countAgainst, titleFrom } = options;
  if (userMessage) {
    const set = Prisma.sql`, "turnLeaseId" = ${leaseId}, "turnLeaseUntil" = ${leaseUntil(leaseMs)}`;
    // The send is counted in the same statement (one round trip less): the row is taken
    // only while the count is within the limit.
    const take = countAgainst
      ? { set, with: Prisma.sql`counted AS (${countEventSql(countAgainst)}),`, where: Prisma.sql`${leaseFree} AND (SELECT "count" FROM counted) <= ${countAgainst.max}` }
      : { set, where: leaseFree };
    const appended = await appendWithRowChange(db, userId, conversationId, userMessage, take);
    const stored = appended?.rows[0];
    if (!appended || !stored) throw await refusal(db, userId, conversationId, countAgainst);
    // Only the first message of a conversation costs this second statement.
    const title = await nameAfterFirstMessage(db, userId, conversationId, titleFrom === undefined ? stored : { seq: stored.seq, content: titleFrom });
    return { userMessage: toMessageView(stored), title, head: appended.head, settings: resolveLayers(appended.settingsLayers) };
  }
  const taken = await db.$executeRaw`
    UPDATE "Conversation" SET "turnLeaseId" = ${leaseId}, "turnLeaseUntil" = ${leaseUntil(leaseMs)}
    WHERE id = ${conversationId} AND "userId" = ${userId} ${leaseFree}`;
  if (taken === 0) throw await refusal(db, userId, conversationId);
  return { userMessage: null, title: null, head: null, settings: null };
}

/**
 * The change that releases this turn's lease in the statement storing its final reply
 * (one round trip less per turn); a lease that expired and was taken since is left alone.
 */
export function releasedWith(leaseId: string): ConversationRowChange {
  return {
    set: Prisma.sql`, "turnLeaseId" = CASE WHEN "turnLeaseId" = ${leaseId} THEN NULL ELSE "turnLeaseId" END,
      "turnLeaseUntil" = CASE WHEN "turnLeaseId" = ${leaseId} THEN NULL ELSE "turnLeaseUntil" END`,
    where: Prisma.empty,
  };
}

/** Extends a lease this turn still holds; false when it was lost (expired and taken by another turn). */
export async function renewTurnLease(db: Db, userId: string, conversationId: string, leaseId: string, leaseMs: number): Promise<boolean> {
  const renewed = await db.$executeRaw`
    UPDATE "Conversation" SET "turnLeaseUntil" = ${leaseUntil(leaseMs)}
    WHERE id = ${conversationId} AND "userId" = ${userId} AND "turnLeaseId" = ${leaseId}`;
  return renewed > 0;
}

export async function releaseTurnLease(db: Db, userId: string, conversationId: string, leaseId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "Conversation" SET "turnLeaseId" = NULL, "turnLeaseUntil" = NULL
    WHERE id = ${conversationId} AND "userId" = ${userId} AND "turnLeaseId" = ${leaseId}`;
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
