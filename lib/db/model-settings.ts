// What the chat model is asked with: a conversation's model, instructions (its system
// prompt) and reply temperature; the user's defaults for new conversations; the admin's
// list of models for the picker. Every conversation read and write names the owner.
import type { Db } from "./client.ts";
import { INSTANCE_ID } from "./instance.ts";
import { ownedConversation } from "./conversations.ts";
import { notFound } from "../errors.ts";

export type ConversationModelSettings = { model: string; instructions: string; temperature: number | null };
export type ChatDefaults = { instructions: string; temperature: number | null };

const MODEL_SETTINGS_SELECT = { model: true, systemPrompt: true, temperature: true } as const;

function toModelSettings(row: { model: string; systemPrompt: string; temperature: number | null }): ConversationModelSettings {
  return { model: row.model, instructions: row.systemPrompt, temperature: row.temperature };
}

export async function readConversationModelSettings(db: Db, userId: string, conversationId: string): Promise<ConversationModelSettings> {
  const row = await db.conversation.findFirst({ where: ownedConversation(userId, conversationId), select: MODEL_SETTINGS_SELECT });
  if (!row) throw notFound("conversation", conversationId);
  return toModelSettings(row);
}

/** Changes only what the patch names; `temperature: null` removes the conversation's temperature. */
export async function writeConversationModelSettings(
  db: Db,
  userId: string,
  conversationId: string,
  patch: { model?: string | undefined; instructions?: string | undefined; temperature?: number | null | undefined },
): Promise<ConversationModelSettings> {
  const data = {
    ...(patch.model !== undefined ? { model: patch.model } : {}),
    ...(patch.instructions !== undefined ? { systemPrompt: patch.instructions } : {}),
    ...(patch.temperature !== undefined ? { temperature: patch.temperature } : {}),
  };
  // One statement: the owner check and the change cannot be split by another request.
  const rows = await db.conversation.updateManyAndReturn({ where: ownedConversation(userId, conversationId), data, select: MODEL_SETTINGS_SELECT });
  const row = rows[0];
  if (!row) throw notFound("conversation", conversationId);
  return toModelSettings(row);
}

/** The temperature a reply of this conversation is asked with (null: none sent). */
export async function readReplyTemperature(db: Db, userId: string, conversationId: string): Promise<number | null> {
  const row = await db.conversation.findFirst({ where: ownedConversation(userId, conversationId), select: { temperature: true } });
  if (!row) throw notFound("conversation", conversationId);
  return row.temperature;
}

export async function readChatDefaults(db: Db, userId: string): Promise<ChatDefaults> {
  const row = await db.userSettings.findUnique({ where: { userId }, select: { instructions: true, temperature: true } });
  return { instructions: row?.instructions ?? "", temperature: row?.temperature ?? null };
}

export async function writeChatDefaults(db: Db, userId: string, defaults: ChatDefaults): Promise<ChatDefaults> {
  const row = await db.userSettings.upsert({
    where: { userId },
    create: { userId, ...defaults },
    update: defaults,
    select: { instructions: true, temperature: true },
  });
  return { instructions: row.instructions, temperature: row.temperature };
}

export async function readAdminModelList(db: Db): Promise<string[]> {
  return (await db.instance.findUnique({ where: { id: INSTANCE_ID }, select: { modelList: true } }))?.modelList ?? [];
}

export async function writeAdminModelList(db: Db, models: string[]): Promise<string[]> {
  const row = await db.instance.upsert({
    where: { id: INSTANCE_ID },
    create: { id: INSTANCE_ID, modelList: models },
    update: { modelList: models },
    select: { modelList: true },
  });
  return row.modelList;
}

export type ImageModelLists = { imageModels: string[]; textOnlyModels: string[] };

const IMAGE_LISTS_SELECT = { imageModels: true, textOnlyModels: true } as const;

/** The admin's lists of models that take images and that do not (lib/llm/vision.ts). */
export async function readImageModelLists(db: Db): Promise<ImageModelLists> {
  const row = await db.instance.findUnique({ where: { id: INSTANCE_ID }, select: IMAGE_LISTS_SELECT });
  return { imageModels: row?.imageModels ?? [], textOnlyModels: row?.textOnlyModels ?? [] };
}

export async function writeImageModelLists(db: Db, lists: ImageModelLists): Promise<ImageModelLists> {
  return db.instance.upsert({ where: { id: INSTANCE_ID }, create: { id: INSTANCE_ID, ...lists }, update: lists, select: IMAGE_LISTS_SELECT });
}
