// Every pinned message of a conversation, for the pinned list: number, role and the
// start of the text (a pinned log of 100k characters is not sent whole to list it).
import type { Db } from "./client.ts";
import { assertOwnsConversation } from "./conversations.ts";
import type { PinnedEntryView } from "../views";

/** The most pins listed; a conversation has a handful. */
const PINNED_LIMIT = 500;
const HEAD_CHARS = 400;

export async function listPinned(db: Db, userId: string, conversationId: string): Promise<PinnedEntryView[]> {
  await assertOwnsConversation(db, userId, conversationId);
  const rows = await db.$queryRaw<{ seq: number; role: PinnedEntryView["role"]; head: string }[]>`
    SELECT seq, role::text AS role, left(content, ${HEAD_CHARS}) AS head FROM "Message"
    WHERE "conversationId" = ${conversationId} AND pinned AND "rewoundAt" IS NULL
    ORDER BY seq LIMIT ${PINNED_LIMIT}`;
  return rows.map((row) => ({ seq: row.seq, role: row.role, firstLine: firstLine(row.head) }));
}

function firstLine(text: string): string {
  const line = text.split("\n").find((candidate) => candidate.trim().length > 0)?.trim() ?? "";
  return line.length > 120 ? `${line.slice(0, 119).trimEnd()}…` : line;
}
