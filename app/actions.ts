"use server";
// Server actions: the browser's door to every operation. Each validates its input
// with zod (in lib/chat/operations) and returns an ActionResult instead of throwing.
import * as ops from "@/lib/chat/operations";
import { asResult } from "@/lib/chat/result";
import { listModels } from "@/lib/llm/client";
import { eventStream } from "@/lib/chat/event-stream";

/**
 * Sends a message (or retries, or edits a past one) and streams the turn's events as
 * the action's value. Input and conversation are checked before the stream starts, so
 * a refusal arrives as an error result, never as a broken stream. The action settles
 * as soon as the stream is returned, so other actions (stop, expand, pin) are not held
 * back while the reply streams.
 */
export async function sendMessageAction(input: unknown) {
  return asResult(async () => eventStream(await ops.startTurn(input)));
}

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
