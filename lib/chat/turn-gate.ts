// One turn at a time per conversation (see lib/db/turn-lease.ts for the database side).
// A gate is opened before the turn streams, so a refusal is an ordinary error (409
// "busy") rather than a broken stream; the turn closes it when it ends, however it ends.
import { randomUUID } from "node:crypto";
import { config } from "../config";
import { getDb } from "../db/client";
import type { Message } from "../db/generated/client";
import { appendWithRowChange, type MessageDraft } from "../db/messages";
import { releasedWith, releaseTurnLease, renewTurnLease, takeTurnLease, type ClaimBucket } from "../db/turn-lease";
import type { CompressionSettings } from "../compression/settings";
import type { ConversationHead } from "../db/transcript";
import { notFound } from "../errors";
import { turnRunsHere } from "./running-turns";
import { logger } from "../log/logger";
import type { MessageView } from "../views";

// A gate whose turn never ran (its events never read) stops renewing after this long.
// A turn that runs keeps renewing however long it waits (a slow tool, the user's
// approval of a call): it closes the gate itself when it ends.
const MAX_TURN_MS = 30 * 60_000;

export type TurnGate = {
  /** The user's message, stored with the lease (null for a retry or an edit, which store it later). */
  userMessage: MessageView | null;
  /** Stores the turn's last reply and closes the gate in the same statement. */
  appendFinalReply: (reply: MessageDraft) => Promise<Message>;
  /** The conversation's new name when that message was its first (see nameAfterFirstMessage), else null. */
  title: string | null;
  /** The conversation row as the statement storing the user's message left it (null without one): the turn's first load reads nothing more when this process's copy of the context is at it. */
  head: ConversationHead | null;
  /** The conversation's settings, read by that statement (null without one): the turn's snapshot. */
  settings: CompressionSettings | null;
  close: () => Promise<void>;
};

/**
 * `countAgainst`: the send counter a new message counts against, in the statement that
 * stores it; `titleFrom`: what a first message names the conversation from, when not its content.
 */
export async function openTurnGate(
  userId: string,
  conversationId: string,
  userMessage?: MessageDraft,
  countAgainst?: ClaimBucket,
  titleFrom?: string,
): Promise<TurnGate> {
  const db = await getDb();
  const leaseId = randomUUID();
  // How long a lease lasts without renewal: the longest a crashed process blocks its conversations.
  const leaseMs = config().STRATA_TURN_LEASE_MS;
  const taken = await takeTurnLease(db, userId, conversationId, {
    leaseId,
    leaseMs,
    ...(userMessage ? { userMessage } : {}),
    ...(countAgainst ? { countAgainst } : {}),
    ...(titleFrom !== undefined ? { titleFrom } : {}),
  });
  const opened = Date.now();
  let closed = false;
  const renew = setInterval(() => {
    if (Date.now() - opened > MAX_TURN_MS && !turnRunsHere(conversationId)) return clearInterval(renew);
    renewTurnLease(db, userId, conversationId, leaseId, leaseMs).then(
      (kept) => {
        if (kept || closed) return;
        // It ran out before this renewal (a process too busy to renew in time) and another
        // turn took it: nothing stops this turn now, but the log says where ordering broke.
        clearInterval(renew);
        logger.warn({ conversationId, leaseMs }, "the turn lost its lease to another turn; two turns may overlap in this conversation");
      },
      (error: unknown) => logger.warn({ conversationId, err: String(error) }, "could not renew the turn lease"),
    );
  }, Math.max(250, leaseMs / 3));
  renew.unref?.();
  return {
    userMessage: taken.userMessage,
    async appendFinalReply(reply) {
      const row = (await appendWithRowChange(db, userId, conversationId, reply, releasedWith(leaseId)))?.rows[0];
      if (!row) throw notFound("conversation", conversationId);
      closed = true;
      clearInterval(renew);
      return row;
    },
    title: taken.title,
    head: taken.head,
    settings: taken.settings?.settings ?? null,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(renew);
      await releaseTurnLease(db, userId, conversationId, leaseId).catch((error: unknown) =>
        logger.warn({ conversationId, err: String(error) }, "could not release the turn lease (it expires by itself)"),
      );
    },
  };
}
