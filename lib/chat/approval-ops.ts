// The user's answer to a tool call waiting for approval (see lib/chat/tools/approval.ts).
// The call waits in the memory of the process running its turn. An answer that reaches
// another instance (several behind one address, on one PostgreSQL) is passed on over
// the database's NOTIFY, as Stop is; the instance whose turn waits settles the call.
import { z } from "zod";
import { config } from "../config";
import { getDb } from "../db/client";
import { broadcastApproval } from "../db/cluster";
import { assertOwnsConversation } from "../db/conversations";
import { AppError } from "../errors";
import { logger } from "../log/logger";
import { type Actor, parse } from "./actor";
import { idSchema } from "./inputs";
import { turnRunsHere } from "./running-turns";
import { answerApproval } from "./tools/approval";

const callIdSchema = z.string({ message: "The call id must be text." }).min(1, { message: "The call id is empty." }).max(500);
const approvedSchema = z.boolean({ message: "Say whether the call is approved (true or false)." });

export const toolApprovalInput = z.object({ conversationId: idSchema, callId: callIdSchema, approved: approvedSchema });

/** An answer passed on to the other instances: checked for ownership where it was received. */
const routedAnswerSchema = z.object({ userId: z.string().min(1), conversationId: idSchema, callId: callIdSchema, approved: approvedSchema });

/**
 * Approves or denies one waiting call. Only the conversation's owner may answer (anyone
 * else's id answers "not found"), and only a call that waits for an answer: refused
 * ("conflict") when the turn runs here and that call does not wait. When the
 * conversation's turn does not run in this process and the database is shared, the
 * answer is passed on (`routed`); the turn's own events say when its call is settled.
 */
export async function answerToolApproval(actor: Actor, input: unknown): Promise<{ callId: string; approved: boolean; routed: boolean }> {
  const { conversationId, callId, approved } = parse(toolApprovalInput, input);
  await assertOwnsConversation(await getDb(), actor.id, conversationId);
  const answer = { userId: actor.id, conversationId, callId, approved };
  // A waiting call belongs to a running turn: not running here, it waits elsewhere or nowhere.
  if (!turnRunsHere(conversationId) && config().DATABASE_URL) {
    await broadcastApproval(JSON.stringify(routedAnswerSchema.parse(answer)));
    return { callId, approved, routed: true };
  }
  if (answerApproval(answer)) return { callId, approved, routed: false };
  throw new AppError("conflict", "That tool call is not waiting for an answer: it was answered already, or its wait ended (timeout or Stop).");
}

/** An answer another instance passed on: settles the call when it waits here (ignored otherwise). */
export function answerRoutedApproval(payload: string): void {
  let parsed: z.infer<typeof routedAnswerSchema>;
  try {
    parsed = routedAnswerSchema.parse(JSON.parse(payload));
  } catch {
    logger.warn({ channel: "tool approval" }, "ignored a malformed approval answer from another instance");
    return;
  }
  if (answerApproval(parsed)) logger.info({ conversationId: parsed.conversationId, callId: parsed.callId }, "tool call answered through another instance");
}
