"use server";
// Server actions of the model picker, the default instructions and the admin's model
// list (lib/chat/model-ops.ts validates every input; these resolve the user).
import * as ops from "@/lib/chat/operations";
import { requireActionUser } from "@/lib/auth/current-user";
import { asResult } from "@/lib/errors";
import type { z } from "zod";
import type { idSchema } from "@/lib/chat/inputs";
import type { adminModelListInput, chatDefaultsInput, modelSettingsInput } from "@/lib/chat/model-ops";

export async function modelSettingsAction(conversationId: z.input<typeof idSchema>) {
  return asResult(async () => ops.modelSettings(await requireActionUser(), conversationId));
}

export async function updateModelSettingsAction(input: z.input<typeof modelSettingsInput>) {
  return asResult(async () => ops.updateModelSettings(await requireActionUser(), input));
}

export async function chatDefaultsAction() {
  return asResult(async () => ops.chatDefaults(await requireActionUser()));
}

export async function saveChatDefaultsAction(input: z.input<typeof chatDefaultsInput>) {
  return asResult(async () => ops.saveChatDefaults(await requireActionUser(), input));
}

export async function saveAdminModelListAction(input: z.input<typeof adminModelListInput>) {
  return asResult(async () => ops.saveAdminModelList(await requireActionUser(), input));
}
