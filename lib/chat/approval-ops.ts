// The user's answer to a tool call waiting for approval (see lib/chat/tools/approval.ts),
// and the tools the user lets run without asking in a conversation.
//
// A call waits in the memory of the process running its turn. An answer that reaches
// another instance (several behind one address, on one PostgreSQL) is passed on over
// the database's NOTIFY, as Stop is; the instance whose turn waits settles the call.
import { z } from "zod";
import { config } from "../config";
import { getDb } from "../db/client";
import { broadcastApproval } from "../db/cluster";
import { assertOwnsConversation } from "../db/conversations";
import { allowTool, disallowTool, listAllowedTools, type AllowedTool } from "../db/tool-allowances";
import { AppError } from "../errors";
import { logger } from "../log/logger";
import { type Actor, parse } from "./actor";
import { idSchema } from "./inputs";
import { turnRunsHere } from "./running-turns";
import { answerApproval, approveWaitingCallsOf, waitingCall } from "./tools/approval";

const callIdSchema = z.string({ message: "The call id must be text." }).min(1, { message: "The call id is empty." }).max(500);
const approvedSchema = z.boolean({ message: "Say whether the call is approved (true or false)." });
/** With an approval: the tool runs without asking from now on in this conversation. */
const alwaysSchema = z.boolean({ message: "always must be true or false." }).optional();

export const toolApprovalInput = z.object({ conversationId: idSchema, callId: callIdSchema, approved: approvedSchema, always: alwaysSchema });

/** An answer passed on to the other instances: checked for ownership where it was received. */
const routedAnswerSchema = z.object({ userId: z.string().min(1), conversationId: idSchema, callId: callIdSchema, approved: approvedSchema, always: alwaysSchema });
type Answer = z.infer<typeof routedAnswerSchema>;

/**
 * Settles a call waiting here; false when none of that id waits for that user. "Always"
 * is stored before the call is settled, so the turn's next round already finds it, and
 * approves the tool's other calls waiting beside it.
 */
async function settle({ userId, conversationId, callId, approved, always }: Answer): Promise<boolean> {
  const call = waitingCall(userId, conversationId, callId);
  if (!call) return false;
  const { prompt } = call;
  if (approved && always && prompt) {
    const tool: AllowedTool = { server: prompt.server ?? "", toolName: prompt.toolName };
    await allowTool(await getDb(), userId, conversationId, tool);
    return approveWaitingCallsOf(userId, conversationId, tool) > 0;
  }
  return answerApproval({ userId, conversationId, callId, approved });
}

/**
 * Approves or denies one waiting call. Only the conversation's owner may answer (anyone
 * else's id answers "not found"), and only a call that waits for an answer: refused
 * ("conflict") when the turn runs here and that call does not wait. When the
 * conversation's turn does not run in this process and the database is shared, the
 * answer is passed on (`routed`); the turn's own events say when its call is settled.
 */
export async function answerToolApproval(actor: Actor, input: unknown): Promise<{ callId: string; approved: boolean; routed: boolean }> {
  const { conversationId, callId, approved, always } = parse(toolApprovalInput, input);
  await assertOwnsConversation(await getDb(), actor.id, conversationId);
  const answer: Answer = { userId: actor.id, conversationId, callId, approved, ...(always === undefined ? {} : { always }) };
  // A waiting call belongs to a running turn: not running here, it waits elsewhere or nowhere.
  if (!turnRunsHere(conversationId) && config().DATABASE_URL) {
    await broadcastApproval(JSON.stringify(routedAnswerSchema.parse(answer)));
    return { callId, approved, routed: true };
  }
  if (await settle(answer)) return { callId, approved, routed: false };
  throw new AppError("conflict", "That tool call is not waiting for an answer: it was answered already, or its wait ended (timeout or Stop).");
}

/** An answer another instance passed on: settles the call when it waits here (ignored otherwise). */
export async function answerRoutedApproval(payload: string): Promise<void> {
  let parsed: Answer;
  try {
    parsed = routedAnswerSchema.parse(JSON.parse(payload));
  } catch {
    logger.warn({ channel: "tool approval" }, "ignored a malformed approval answer from another instance");
    return;
  }
  try {
    if (await settle(parsed)) logger.info({ conversationId: parsed.conversationId, callId: parsed.callId }, "tool call answered through another instance");
  } catch (error) {
    logger.warn({ conversationId: parsed.conversationId, err: String(error) }, "could not settle an approval answer from another instance");
  }
}

export const allowedToolInput = z.object({ conversationId: idSchema, server: z.string().max(200), toolName: z.string().min(1).max(200) });

/** The tools that run without asking in the conversation. */
export async function allowedTools(actor: Actor, conversationId: unknown): Promise<{ tools: AllowedTool[] }> {
  const id = parse(idSchema, conversationId);
  const db = await getDb();
  await assertOwnsConversation(db, actor.id, id);
  return { tools: await listAllowedTools(db, actor.id, id) };
}

/** Asks again before the tool runs in the conversation. */
export async function disallowToolOp(actor: Actor, input: unknown): Promise<{ removed: boolean }> {
  const { conversationId, ...tool } = parse(allowedToolInput, input);
  const db = await getDb();
  await assertOwnsConversation(db, actor.id, conversationId);
  return { removed: await disallowTool(db, actor.id, conversationId, tool) };
}

