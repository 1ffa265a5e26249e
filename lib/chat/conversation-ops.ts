// Operations on conversations as a whole: create, list, rename, delete, pin a
// message, notice changes from elsewhere, stop a running turn.
import * as conversations from "../db/conversations";
import { getDb } from "../db/client";
import { readChatDefaults } from "../db/model-settings";
import { setPinned } from "../db/messages";
import { conversationChangeState } from "../db/turn-lease";
import { startingModel } from "../llm/client";
import { createConversationInput, idSchema, pinInput, updateConversationInput } from "./inputs";
import { stopTurnsEverywhere } from "./running-turns";
import { watchTurn } from "./live-turns";
import type { TurnEvent } from "./events";
import { waitingPrompts } from "./tools/approval";
import { type Actor, parse } from "./actor";

export async function createConversation(actor: Actor, input: unknown) {
  const { title, model, systemPrompt } = parse(createConversationInput, input ?? {});
  const db = await getDb();
  // A new conversation starts from the owner's defaults; from then on it has its own.
  const defaults = await readChatDefaults(db, actor.id);
  return conversations.createConversation(db, actor.id, {
    title: title ?? conversations.DEFAULT_TITLE,
    model: model ?? (await startingModel()),
    systemPrompt: systemPrompt ?? defaults.instructions,
    temperature: defaults.temperature,
  });
}

export async function listConversations(actor: Actor) {
  return conversations.listConversations(await getDb(), actor.id);
}

export async function getConversation(actor: Actor, id: unknown) {
  return conversations.getConversation(await getDb(), actor.id, parse(idSchema, id));
}

export async function updateConversation(actor: Actor, input: unknown) {
  const { conversationId, ...patch } = parse(updateConversationInput, input);
  return conversations.updateConversation(await getDb(), actor.id, conversationId, patch);
}

export async function deleteConversation(actor: Actor, id: unknown) {
  await conversations.deleteConversation(await getDb(), actor.id, parse(idSchema, id));
}

export async function pinMessage(actor: Actor, input: unknown) {
  const { conversationId, seq, pinned } = parse(pinInput, input);
  return setPinned(await getDb(), actor.id, conversationId, seq, pinned);
}

/**
 * What an open tab polls to notice messages, compactions and turns from elsewhere
 * (another tab, another process), with the tool calls waiting for the user's approval
 * here: a tab that did not start the turn (or was reloaded) shows their prompts too.
 */
export async function changeState(actor: Actor, conversationId: unknown) {
  const id = parse(idSchema, conversationId);
  const state = await conversationChangeState(await getDb(), actor.id, id);
  return { ...state, approvals: state.turnRunning ? waitingPrompts(actor.id, id) : [] };
}

/**
 * The conversation's running turn as another view of it watches it: what the turn has
 * done so far, then its events until it ends; nothing when no turn runs in this process.
 */
export async function watchRunningTurn(actor: Actor, conversationId: unknown, signal?: AbortSignal): Promise<AsyncGenerator<TurnEvent>> {
  const id = parse(idSchema, conversationId);
  await conversations.assertOwnsConversation(await getDb(), actor.id, id);
  return watchTurn(id, signal);
}

export async function stop(actor: Actor, conversationId: unknown): Promise<{ stopped: number }> {
  const id = parse(idSchema, conversationId);
  await conversations.assertOwnsConversation(await getDb(), actor.id, id);
  return { stopped: await stopTurnsEverywhere(id) };
}
