// The user's answer to a tool call waiting for approval (see lib/chat/tools/approval.ts).
import { z } from "zod";
import { getDb } from "../db/client";
import { assertOwnsConversation } from "../db/conversations";
import { AppError } from "../errors";
import { type Actor, parse } from "./actor";
import { idSchema } from "./inputs";
import { answerApproval } from "./tools/approval";

export const toolApprovalInput = z.object({
  conversationId: idSchema,
  callId: z.string({ message: "The call id must be text." }).min(1, { message: "The call id is empty." }).max(500),
  approved: z.boolean({ message: "Say whether the call is approved (true or false)." }),
});

/**
 * Approves or denies one waiting call. Only the conversation's owner may answer (anyone
 * else's id answers "not found"), and only a call that waits for an answer right now.
 */
export async function answerToolApproval(actor: Actor, input: unknown): Promise<{ callId: string; approved: boolean }> {
  const { conversationId, callId, approved } = parse(toolApprovalInput, input);
  await assertOwnsConversation(await getDb(), actor.id, conversationId);
  if (!answerApproval({ userId: actor.id, conversationId, callId, approved })) {
    throw new AppError(
      "conflict",
      "That tool call is not waiting for an answer: it was answered already, its wait ended (timeout or Stop), or its turn runs on another server instance.",
    );
  }
  return { callId, approved };
}
