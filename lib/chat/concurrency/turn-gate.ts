// The turn gate: one turn at a time per conversation (lib/db/turn-lease.ts is the
// database side; ./index.ts says where it stands among the other locks). A gate is
// opened before the turn streams, so a refusal is an ordinary error (409 "busy") rather
// than a broken stream; the turn closes it when it ends, however it ends.
import { randomUUID } from "node:crypto";
import { config } from "../../config";
import { getDb, type Db } from "../../db/client";
import { keepStored, type ConversationHead } from "../../db/context-cache";
import type { Message } from "../../db/generated/client";
import type { McpServerRecord } from "../../db/mcp-servers";
import { toMessageView } from "../../db/mappers";
import type { ReplyDraft, UserDraft } from "../../db/message-drafts";
import { releaseTurnLease, renewTurnLease, storeFinalReply, storeTurnMessage, takeTurnLease, type ClaimBucket } from "../../db/turn-lease";
import type { CompressionSettings } from "../../compression/settings";
import { turnRunsHere } from "../running-turns";
import { logger } from "../../log/logger";
import type { MessageView } from "../../views";

// A gate whose turn never ran (its events never read) stops renewing after this long.
// A turn that runs keeps renewing however long it waits (a slow tool, the user's
// approval of a call): it closes the gate itself when it ends.
const MAX_TURN_MS = 30 * 60_000;

export type TurnGate = {
  /** Stores the turn's last reply and closes the gate in the same statement, which also answers the conversation's change version after it. */
  storeFinalReply: (reply: ReplyDraft) => Promise<{ message: Message; version: string }>;
  close: () => Promise<void>;
};

/** The user's message stored by the statement that opened the gate, and what the turn starts from. */
export type GateMessage = {
  message: MessageView;
  /** The conversation's new name when that message was its first, else null. */
  title: string | null;
  /** The conversation row as that statement left it: the turn's first load reads nothing more when this process's copy of the context is at it. */
  head: ConversationHead;
  /** The conversation's settings, read by that statement: the turn's snapshot. */
  settings: CompressionSettings;
  /** The reply temperature, read by that statement (null: none sent). */
  temperature: number | null;
  /** The tool servers the conversation uses, read by that statement. */
  servers: McpServerRecord[];
};

/** Opens the gate for work that stores no user message with it (a retry, an edit, a version switch, an undo). */
export async function openTurnGate(userId: string, conversationId: string): Promise<TurnGate> {
  const db = await getDb();
  const lease = { leaseId: randomUUID(), leaseMs: leaseMs() };
  await takeTurnLease(db, userId, conversationId, lease);
  return heldGate(db, userId, conversationId, lease);
}

/**
 * Opens the gate in the statement that stores the turn's new message, counting it
 * against `countAgainst` (the send limit).
 */
export async function openTurnGateWithMessage(
  userId: string,
  conversationId: string,
  message: UserDraft,
  countAgainst: ClaimBucket | null,
  // What a first message names the conversation from, when not its content (the typed text of a message with files).
  titleFrom?: string,
): Promise<{ gate: TurnGate; stored: GateMessage }> {
  const db = await getDb();
  const lease = { leaseId: randomUUID(), leaseMs: leaseMs() };
  const taken = await storeTurnMessage(db, userId, conversationId, { ...lease, message, countAgainst, titleFrom });
  // The turn's first load then reads nothing (see loadTranscript's `known`).
  keepStored(db, conversationId, taken.stored);
  const row = taken.stored.rows[0]!;
  return {
    gate: heldGate(db, userId, conversationId, lease),
    stored: { message: toMessageView(row), title: taken.title, head: taken.stored.head, settings: taken.settings.settings, temperature: taken.temperature, servers: taken.servers },
  };
}

/** How long a lease lasts without renewal: the longest a crashed process blocks its conversations. */
function leaseMs(): number {
  return config().STRATA_TURN_LEASE_MS;
}

function heldGate(db: Db, userId: string, conversationId: string, { leaseId, leaseMs }: { leaseId: string; leaseMs: number }): TurnGate {
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
    async storeFinalReply(reply) {
      const stored = await storeFinalReply(db, userId, conversationId, leaseId, reply);
      closed = true;
      clearInterval(renew);
      // The next turn's first load then reads nothing either.
      keepStored(db, conversationId, stored);
      return { message: stored.rows[0]!, version: stored.version };
    },
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
