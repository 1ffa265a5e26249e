// A user's compression settings and a conversation's overrides of them.
import { z } from "zod";
import { compressionSettingsObject, compressionSettingsSchema, type CompressionSettings } from "../compression/settings";
import { getDb } from "../db/client";
import { readDefaults, readSettings, readUserSettings, updateConversationOverrides, writeUserSettings } from "../db/settings";
import type { ResolvedSettings } from "../settings-layers";
import { AppError } from "../errors";
import { conversationOverridesInput, idSchema } from "./inputs";
import { type Actor, parse } from "./actor";

/** The user's own settings: what their conversations start from. */
export async function getSettings(actor: Actor): Promise<CompressionSettings> {
  return (await readUserSettings(await getDb(), actor.id)).settings;
}

export function assertKnownSummaryModel(model: string | null | undefined, knownModels?: string[] | null): void {
  if (model && knownModels && !knownModels.includes(model)) {
    throw new AppError("invalid_input", `summaryModel: the endpoint does not offer a model named "${model}".`, {
      summaryModel: [`Unknown model "${model}".`],
    });
  }
}

/** What the settings page edits, and the defaults its "reset" returns to. */
export async function settingsForm(actor: Actor): Promise<{ settings: CompressionSettings; defaults: CompressionSettings }> {
  const db = await getDb();
  const [user, defaults] = await Promise.all([readUserSettings(db, actor.id), readDefaults(db)]);
  return { settings: user.settings, defaults: defaults.settings };
}

/** Every field and the relations between them, and a summary model the endpoint offers. */
export function parseSettings(input: unknown, knownModels?: string[] | null): CompressionSettings {
  const settings = parse(compressionSettingsSchema, input);
  assertKnownSummaryModel(settings.summaryModel, knownModels);
  return settings;
}

/** Validates every field before anything is stored; applies from the user's next turn. */
export async function saveSettings(actor: Actor, input: unknown, knownModels?: string[] | null): Promise<CompressionSettings> {
  return (await writeUserSettings(await getDb(), actor.id, parseSettings(input, knownModels))).settings;
}

/**
 * A partial update (PUT /api/settings with some fields): the named fields change, every
 * other one keeps its stored value; the result is validated as a whole.
 */
export async function updateSettings(actor: Actor, patch: unknown, knownModels?: string[] | null): Promise<CompressionSettings> {
  const fields = parse(z.record(z.string(), z.unknown(), { message: "Send the settings as a JSON object." }), patch);
  // The names as sent (a parsed record drops "__proto__"), each an own setting: `in` would
  // also accept what every object inherits ("constructor", "toString").
  const unknown = Object.keys(patch as object).filter((name) => !Object.hasOwn(compressionSettingsObject.shape, name));
  if (unknown.length) {
    throw new AppError("invalid_input", `Unknown setting${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}.`, Object.fromEntries(unknown.map((name) => [name, ["Unknown setting."]])));
  }
  const current = (await readUserSettings(await getDb(), actor.id)).settings;
  return saveSettings(actor, { ...current, ...fields }, knownModels);
}

/** The settings a conversation runs with, and where each value comes from. */
export async function conversationSettings(actor: Actor, conversationId: unknown): Promise<ResolvedSettings> {
  return readSettings(await getDb(), actor.id, parse(idSchema, conversationId));
}

/** Sets (a value) or removes (null) a conversation's overrides; applies from its next turn. */
export async function updateConversationSettings(actor: Actor, input: unknown, knownModels?: string[] | null): Promise<ResolvedSettings> {
  const { conversationId, ...patch } = parse(conversationOverridesInput, input);
  assertKnownSummaryModel(patch.summaryModel, knownModels);
  return updateConversationOverrides(await getDb(), actor.id, conversationId, patch);
}
