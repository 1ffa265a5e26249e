"use server";
// Server actions: the browser's door to the operations that change something. Reads go
// through GET routes instead (lib/http/owner-reads.ts): actions run one at a time per
// page, so a read queued behind a long one waits, and a GET can be cached and counted.
// One read stays here on purpose: the admin's tool-server list with `connect` starts the
// configured servers, and what starts a process must not be a GET a link can trigger. Each resolves the signed-in
// user, validates its input with zod (in lib/chat/operations) and returns an
// ActionResult instead of throwing ("unauthorized" without a session). Each parameter's
// type is the input type of the schema its operation parses with, so that a caller
// sending the wrong shape fails to compile; the operation still parses, as anyone can
// call an action with anything.
import * as ops from "@/lib/chat/operations";
import { requireActionUser, requireSessionActionUser, type CurrentUser } from "@/lib/auth/current-user";
import { asResult } from "@/lib/errors";
import { listModels } from "@/lib/llm/client";
import { eventStream } from "@/lib/chat/event-stream";
import type { TurnRequest } from "@/lib/chat/turn-request";
import type { z } from "zod";
import type {
  applyProposalInput,
  compactInput,
  conversationOverridesInput,
  createConversationInput,
  fromSummaryInput,
  idSchema,
  pinInput,
  recordIdSchema,
  rewindInput,
  signupsOpenInput,
  switchVersionInput,
  updateConversationInput,
} from "@/lib/chat/inputs";
import type { compressionSettingsSchema } from "@/lib/compression/settings";
import type { allowedToolInput, toolApprovalInput } from "@/lib/chat/approval-ops";
import type { newTokenSchema } from "@/lib/auth/token-input";
import type { serverInputSchema } from "@/lib/mcp/config";
import type { conversationServerInput, updateServerInput } from "@/lib/chat/mcp-ops";
import type { modelPriceSchema } from "@/lib/pricing";
import type { undoCompactionInput } from "@/lib/chat/undo-ops";
import type {
  archiveConversationInput,
  deleteMessageInput,
  pinConversationInput,
  renameConversationInput,
} from "@/lib/chat/organise-ops";
import type { adminModelListInput, chatDefaultsInput, imageModelListsInput, modelSettingsInput } from "@/lib/chat/model-ops";
import type { createShareInput, revokeShareInput } from "@/lib/chat/share-ops";

type ConversationId = z.input<typeof idSchema>;

function asUser<T>(work: (user: CurrentUser) => Promise<T> | T) {
  return asResult(async () => work(await requireActionUser()));
}

/**
 * Sends a message (or retries, or edits a past one) and streams the turn's events as
 * the action's value. Input and conversation are checked before the stream starts, so
 * a refusal arrives as an error result, never as a broken stream. The action settles
 * as soon as the stream is returned, so other actions (stop, expand, pin) are not held
 * back while the reply streams. The type says what the browser sends; the input is
 * still validated (lib/chat/turn-request.ts), as anyone can call an action.
 */
export async function sendMessageAction(input: TurnRequest) {
  return asUser(async (user) => eventStream(await ops.startTurn(user, input)));
}

export async function createConversationAction(input: z.input<typeof createConversationInput>) {
  return asUser((user) => ops.createConversation(user, input));
}
export async function updateConversationAction(input: z.input<typeof updateConversationInput>) {
  return asUser((user) => ops.updateConversation(user, input));
}
export async function deleteConversationAction(conversationId: ConversationId) {
  return asUser((user) => ops.deleteConversation(user, conversationId));
}
export async function pinMessageAction(input: z.input<typeof pinInput>) {
  return asUser((user) => ops.pinMessage(user, input));
}
export async function stopTurnAction(conversationId: ConversationId) {
  return asUser((user) => ops.stop(user, conversationId));
}
/** Approves or denies a tool call the running turn waits on. */
export async function answerToolApprovalAction(input: z.input<typeof toolApprovalInput>) {
  return asUser((user) => ops.answerToolApproval(user, input));
}
/** Asks again before the tool runs in the conversation. */
export async function disallowToolAction(input: z.input<typeof allowedToolInput>) {
  return asUser((user) => ops.disallowTool(user, input));
}
export async function rewindAction(input: z.input<typeof rewindInput>) {
  return asUser((user) => ops.rewind(user, input));
}
export async function switchVersionAction(input: z.input<typeof switchVersionInput>) {
  return asUser((user) => ops.switchVersion(user, input));
}
export async function compactNowAction(input: z.input<typeof compactInput>) {
  return asUser((user) => ops.compactNow(user, input));
}
export async function applyProposalAction(input: z.input<typeof applyProposalInput>) {
  return asUser((user) => ops.applyProposal(user, input));
}
export async function saveSettingsAction(input: z.input<typeof compressionSettingsSchema>) {
  return asUser(async (user) => ops.saveSettings(user, input, await listModels()));
}
export async function updateConversationSettingsAction(input: z.input<typeof conversationOverridesInput>) {
  return asUser(async (user) => ops.updateConversationSettings(user, input, await listModels()));
}
export async function saveDefaultsAction(input: z.input<typeof compressionSettingsSchema>) {
  return asUser(async (user) => ops.saveDefaults(user, input, await listModels()));
}
export async function setSignupsOpenAction(open: z.input<typeof signupsOpenInput>) {
  return asUser((user) => ops.setSignupsOpen(user, open));
}
export async function savePriceAction(input: z.input<typeof modelPriceSchema>) {
  return asUser((user) => ops.savePrice(user, input));
}
// Tokens and sessions: from the browser's session only, never with an API token.
function asSessionUser<T>(work: (user: CurrentUser) => Promise<T> | T) {
  return asResult(async () => work(await requireSessionActionUser()));
}

export async function createTokenAction(input: z.input<typeof newTokenSchema>) {
  return asSessionUser((user) => ops.createToken(user, input));
}
export async function revokeTokenAction(tokenId: z.input<typeof recordIdSchema>) {
  return asSessionUser((user) => ops.revokeToken(user, tokenId));
}
export async function revokeAllTokensAction() {
  return asSessionUser((user) => ops.revokeAllTokens(user));
}
export async function revokeSessionAction(sessionId: z.input<typeof recordIdSchema>) {
  return asSessionUser((user) => ops.revokeSession(user, sessionId));
}
export async function conversationFromSummaryAction(input: z.input<typeof fromSummaryInput>) {
  return asUser((user) => ops.conversationFromSummary(user, input));
}
export async function undoCompactionAction(input: z.input<typeof undoCompactionInput>) {
  return asUser((user) => ops.undoCompaction(user, input));
}
// Tool servers: the admin configures them from a browser session (a stdio server runs a
// process on this machine); a conversation's owner switches them for it.
export async function listToolServersAction(connect: boolean) {
  return asSessionUser((user) => ops.listToolServers(user, connect === true));
}
export async function createToolServerAction(input: z.input<typeof serverInputSchema>) {
  return asSessionUser((user) => ops.createToolServer(user, input));
}
export async function updateToolServerAction(input: z.input<typeof updateServerInput>) {
  return asSessionUser((user) => ops.updateToolServer(user, input));
}
export async function deleteToolServerAction(serverId: ConversationId) {
  return asSessionUser((user) => ops.deleteToolServer(user, serverId));
}
export async function setConversationToolServerAction(input: z.input<typeof conversationServerInput>) {
  return asUser((user) => ops.setConversationToolServer(user, input));
}
// Organise: pin, archive, rename inline, delete one message.
export async function pinConversationAction(input: z.input<typeof pinConversationInput>) {
  return asUser((user) => ops.pinConversation(user, input));
}
export async function archiveConversationAction(input: z.input<typeof archiveConversationInput>) {
  return asUser((user) => ops.archiveConversation(user, input));
}
export async function renameConversationAction(input: z.input<typeof renameConversationInput>) {
  return asUser((user) => ops.renameConversation(user, input));
}
export async function deleteMessageAction(input: z.input<typeof deleteMessageInput>) {
  return asUser((user) => ops.deleteMessage(user, input));
}

// Model and instructions (lib/chat/model-ops.ts).
export async function updateModelSettingsAction(input: z.input<typeof modelSettingsInput>) {
  return asUser((user) => ops.updateModelSettings(user, input));
}

export async function saveChatDefaultsAction(input: z.input<typeof chatDefaultsInput>) {
  return asUser((user) => ops.saveChatDefaults(user, input));
}

export async function saveAdminModelListAction(input: z.input<typeof adminModelListInput>) {
  return asUser((user) => ops.saveAdminModelList(user, input));
}

export async function saveImageModelListsAction(input: z.input<typeof imageModelListsInput>) {
  return asUser((user) => ops.saveImageModelLists(user, input));
}

// Share links: made from a browser session only, so a leaked API token cannot mint a
// link that outlives its revocation.
export async function createShareLinkAction(input: z.input<typeof createShareInput>) {
  return asSessionUser((user) => ops.createShareLink(user, input));
}
export async function revokeShareLinkAction(input: z.input<typeof revokeShareInput>) {
  return asUser((user) => ops.revokeShareLink(user, input));
}
