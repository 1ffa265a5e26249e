// The tools a conversation's owner lets run without being asked. Every query names the
// owner through the conversation, like every other conversation-scoped query.
import type { Db } from "./client.ts";
import { assertOwnsConversation } from "./conversations.ts";

/** A tool as the allowance names it: its tool server ("" for Strata's own) and its name as offered. */
export type AllowedTool = { server: string; toolName: string };

const owned = (userId: string, conversationId: string) => ({ conversationId, conversation: { userId } });

/** The conversation's allowed tools, oldest first (none for another user's conversation). */
export async function listAllowedTools(db: Db, userId: string, conversationId: string): Promise<AllowedTool[]> {
  return db.toolAllowance.findMany({
    where: owned(userId, conversationId),
    select: { server: true, toolName: true },
    orderBy: { createdAt: "asc" },
  });
}

/** Lets a tool run without asking in the conversation (not found for another user's). */
export async function allowTool(db: Db, userId: string, conversationId: string, tool: AllowedTool): Promise<void> {
  await assertOwnsConversation(db, userId, conversationId);
  await db.toolAllowance.upsert({
    where: { conversationId_server_toolName: { conversationId, ...tool } },
    create: { conversationId, ...tool },
    update: {},
  });
}

/** Asks again before the tool runs; true when it had been allowed. */
export async function disallowTool(db: Db, userId: string, conversationId: string, tool: AllowedTool): Promise<boolean> {
  const { count } = await db.toolAllowance.deleteMany({ where: { ...owned(userId, conversationId), ...tool } });
  return count > 0;
}
