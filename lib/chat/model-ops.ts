// Model and instructions: which model a conversation talks to, what it is told (its
// instructions, sent as the system prompt) and how freely it answers (temperature).
// Each conversation has its own; a new one starts from its owner's defaults (settings
// page), so changing a default never rewrites a conversation that is under way. The
// compression settings' customPrompt is something else: the summary model's
// instructions, never sent to the chat model.
import { z } from "zod";
import { getDb } from "../db/client";
import {
  readAdminModelList,
  readChatDefaults,
  readImageModelLists,
  readConversationModelSettings,
  writeAdminModelList,
  writeChatDefaults,
  writeConversationModelSettings,
  writeImageModelLists,
  type ChatDefaults,
  type ImageModelLists,
} from "../db/model-settings";
import { adminModelListSchema, modelChoices, modelNameSchema } from "../llm/model-list";
import { type Actor, assertAdmin, parse } from "./actor";
import { meter } from "./compaction-ops";
import { idSchema } from "./inputs";
import { instructionsSchema, temperatureSchema } from "./instructions";

export const modelSettingsInput = z.object({
  conversationId: idSchema,
  model: modelNameSchema.optional(),
  instructions: instructionsSchema.optional(),
  /** null: no temperature is sent (the server's default). */
  temperature: temperatureSchema.nullable().optional(),
});

export const chatDefaultsInput = z.object({
  instructions: instructionsSchema,
  temperature: temperatureSchema.nullable(),
});

export const adminModelListInput = z.object({ models: adminModelListSchema });

/** The admin's word on which models take images (names or name prefixes, lib/llm/vision.ts). */
export const imageModelListsInput = z.object({ imageModels: adminModelListSchema, textOnlyModels: adminModelListSchema });

/** The conversation's model, instructions and temperature, and the models to offer for it. */
export async function modelSettings(actor: Actor, conversationId: unknown) {
  const id = parse(idSchema, conversationId);
  const db = await getDb();
  const settings = await readConversationModelSettings(db, actor.id, id);
  const choices = await modelChoices(await readAdminModelList(db), settings.model);
  return { settings, ...choices };
}

/**
 * Changes what the patch names. The answer carries the context meter measured afresh:
 * another model has another window, so the share used changes at once, and the next
 * turn compresses to the new window before it calls the model.
 */
export async function updateModelSettings(actor: Actor, input: unknown) {
  const { conversationId, ...patch } = parse(modelSettingsInput, input);
  const settings = await writeConversationModelSettings(await getDb(), actor.id, conversationId, patch);
  return { settings, meter: await meter(actor, conversationId) };
}

export async function chatDefaults(actor: Actor): Promise<ChatDefaults> {
  return readChatDefaults(await getDb(), actor.id);
}

export async function saveChatDefaults(actor: Actor, input: unknown): Promise<ChatDefaults> {
  return writeChatDefaults(await getDb(), actor.id, parse(chatDefaultsInput, input));
}

export async function adminModelList(actor: Actor): Promise<string[]> {
  assertAdmin(actor);
  return readAdminModelList(await getDb());
}

export async function saveAdminModelList(actor: Actor, input: unknown): Promise<string[]> {
  assertAdmin(actor);
  return writeAdminModelList(await getDb(), parse(adminModelListInput, input).models);
}

export async function imageModelLists(actor: Actor): Promise<ImageModelLists> {
  assertAdmin(actor);
  return readImageModelLists(await getDb());
}

export async function saveImageModelLists(actor: Actor, input: unknown): Promise<ImageModelLists> {
  assertAdmin(actor);
  return writeImageModelLists(await getDb(), parse(imageModelListsInput, input));
}
