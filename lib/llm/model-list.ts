// The models the picker offers: what the configured server lists on GET /models (asked
// through listModels, which caches the answer for minutes and gives up after 3 s), the
// admin's list, and the conversation's own model. OpenAI-compatible servers may list
// nothing or not everything, so the picker also takes free text; this list only helps.
import { z } from "zod";
import { MAX_MODEL_NAME_CHARS } from "../compression/settings";
import { listModels } from "./client";

/** The admin's list stays small enough to show in one menu. */
export const MAX_ADMIN_MODELS = 100;

export const modelNameSchema = z
  .string({ message: "The model name must be text." })
  .trim()
  .min(1, { message: "The model name is empty." })
  .max(MAX_MODEL_NAME_CHARS, { message: `Model names are at most ${MAX_MODEL_NAME_CHARS} characters.` });

/** The admin's list: names, duplicates and blank lines dropped, order kept. */
export const adminModelListSchema = z
  .array(z.string({ message: "Model names must be text." }), { message: "The model list must be a list of names." })
  .transform((names) => names.map((name) => name.trim()).filter((name) => name.length > 0))
  .pipe(
    z
      .array(modelNameSchema)
      .max(MAX_ADMIN_MODELS, { message: `At most ${MAX_ADMIN_MODELS} models in the list.` })
      .transform((names) => [...new Set(names)]),
  );

export type ModelChoices = {
  /** Every model to offer, each once: the current one, the server's, then the admin's. */
  models: string[];
  /** False when the server did not answer GET /models (or answered nothing): the list is the admin's alone. */
  serverListed: boolean;
};

/** Pure merge, for the picker and its tests. */
export function mergeModelChoices(server: readonly string[] | null, admin: readonly string[], current?: string): ModelChoices {
  const models = new Set<string>();
  if (current) models.add(current);
  for (const name of server ?? []) models.add(name);
  for (const name of admin) models.add(name);
  return { models: [...models], serverListed: server !== null };
}

/** The server's list (cached by listModels) merged with the admin's and the current model. */
export async function modelChoices(admin: readonly string[], current?: string): Promise<ModelChoices> {
  return mergeModelChoices(await listModels(), admin, current);
}
