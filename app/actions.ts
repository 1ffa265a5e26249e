"use server";
// Server actions: the browser's door to every operation. Each validates its input
// with zod (in lib/chat/operations) and returns an ActionResult instead of throwing.
// The one exception is streaming a turn: Next.js runs a client's server actions one at
// a time, so a reply streamed as an action's value would hold back "stop", "expand" and
// every other action until it ended. Turns stream from POST
// /api/conversations/:id/messages instead (lib/client/stream-turn.ts), through the
// same lib/chat/operations.startTurn.
import * as ops from "@/lib/chat/operations";
import { asResult } from "@/lib/chat/result";
import { listModels } from "@/lib/llm/client";

export async function createConversationAction(input: unknown) {
  return asResult(() => ops.createConversation(input));
}
export async function listConversationsAction() {
  return asResult(() => ops.listConversations());
}
export async function updateConversationAction(input: unknown) {
  return asResult(() => ops.updateConversation(input));
}
export async function deleteConversationAction(conversationId: unknown) {
  return asResult(() => ops.deleteConversation(conversationId));
}
export async function timelineAction(input: unknown) {
  return asResult(() => ops.timeline(input));
}
export async function compactionChildrenAction(input: unknown) {
  return asResult(() => ops.compactionChildren(input));
}
export async function attemptsAction(conversationId: unknown) {
  return asResult(() => ops.attempts(conversationId));
}
export async function contextMeterAction(conversationId: unknown) {
  return asResult(() => ops.meter(conversationId));
}
export async function pinMessageAction(input: unknown) {
  return asResult(() => ops.pinMessage(input));
}
export async function stopTurnAction(conversationId: unknown) {
  return asResult(() => ops.stop(conversationId));
}
export async function rewindAction(input: unknown) {
  return asResult(() => ops.rewind(input));
}
export async function compactNowAction(input: unknown) {
  return asResult(() => ops.compactNow(input));
}
export async function applyProposalAction(input: unknown) {
  return asResult(() => ops.applyProposal(input));
}
export async function getSettingsAction() {
  return asResult(() => ops.getSettings());
}
export async function saveSettingsAction(input: unknown) {
  return asResult(async () => ops.saveSettings(input, await listModels()));
}
export async function modelInfoAction() {
  return asResult(() => ops.modelInfo());
}
