// Reads for finding one's way in the compaction tree without loading it: the chain of
// compactions that hold a message (so the timeline opens it in one step, however deep),
// and the pinned originals that compactions on the top level hide.
import type { Db } from "./client.ts";
import { toMessageView } from "./mappers.ts";
import { ownedConversation } from "./conversations.ts";
import { seqFilters } from "./ranges.ts";
import { AppError, notFound } from "../errors.ts";
import type { MessageView, TreePathView } from "../views";

/** At most this many pinned originals are listed beside the blocks (pins are few; the strip must stay small). */
export const PINNED_LIST_LIMIT = 200;

/**
 * The active compactions holding message `seq`, outermost first: the top-level block,
 * then the child of it that holds `seq`, and so on down to the lowest. Reads only the
 * compactions whose range contains `seq` (at most the tree's height of rows), never the
 * tree. An empty path means the message stands on the top level.
 */
export async function pathToSeq(db: Db, userId: string, conversationId: string, seq: number): Promise<TreePathView> {
  const conversation = await db.conversation.findFirst({ where: ownedConversation(userId, conversationId), select: { lastSeq: true } });
  if (!conversation) throw notFound("conversation", conversationId);
  if (seq > conversation.lastSeq) {
    throw new AppError(
      "invalid_input",
      conversation.lastSeq === 0
        ? `No message #${seq}: this conversation has no messages yet.`
        : `No message #${seq}: this conversation has messages #1–#${conversation.lastSeq}.`,
    );
  }
  const message = await db.message.findFirst({ where: { conversationId, seq, rewoundAt: null }, select: { id: true } });
  if (!message) throw new AppError("not_found", `Message #${seq} is no longer in this conversation (it was rewound or replaced).`);
  const holding = await db.compaction.findMany({
    // A clearing hides no message from the timeline: it is never on the way to one.
    where: { conversationId, undoneAt: null, fromSeq: { lte: seq }, toSeq: { gte: seq }, kind: { not: "clearing" } },
    select: { id: true, level: true, fromSeq: true, toSeq: true, supersededById: true },
  });
  const byParent = new Map(holding.map((row) => [row.supersededById, row]));
  const path: TreePathView["path"] = [];
  // Parent links, not levels, decide the order: a chain may skip levels.
  for (let row = byParent.get(null); row && path.length <= holding.length; row = byParent.get(row.id)) {
    path.push({ id: row.id, level: row.level, fromSeq: row.fromSeq, toSeq: row.toSeq });
  }
  return { seq, path };
}

/**
 * Pinned originals that a top-level compaction covers, oldest first: the model still
 * sees them (they are kept beside the summary), so the timeline shows them beside the
 * block instead of only deep inside it.
 */
export async function coveredPinnedMessages(db: Db, userId: string, conversationId: string): Promise<MessageView[]> {
  const conversation = await db.conversation.findFirst({ where: ownedConversation(userId, conversationId), select: { id: true } });
  if (!conversation) throw notFound("conversation", conversationId);
  const top = await db.compaction.findMany({
    where: { conversationId, supersededById: null, undoneAt: null, kind: { not: "clearing" } },
    select: { fromSeq: true, toSeq: true },
  });
  if (top.length === 0) return [];
  const rows = await db.message.findMany({
    where: { conversationId, pinned: true, rewoundAt: null, OR: seqFilters(top) },
    orderBy: { seq: "asc" },
    take: PINNED_LIST_LIMIT,
  });
  return rows.map(toMessageView);
}
