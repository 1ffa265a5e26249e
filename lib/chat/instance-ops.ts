// The instance as a whole: the admin's defaults, whether visitors may sign up,
// and the model endpoint.
import { type CompressionSettings } from "../compression/settings";
import { getDb } from "../db/client";
import { hasAccounts, readSignupsOpen, writeSignupsOpen } from "../db/instance";
import { authConfig, socialProviders } from "../auth/config";
import { signupsAllowed } from "../auth/signups";
import { readDefaults, writeDefaults } from "../db/settings";
import { getModelEndpoint, listModels, startingModel } from "../llm/client";
import { signupsOpenInput } from "./inputs";
import { type Actor, assertAdmin, parse } from "./actor";
import { parseSettings } from "./settings-ops";

/** For the signed-out pages: whether a visitor may sign up, whether theirs would be the first account, which OAuth providers are set up. */
export async function signupState(): Promise<{ allowed: boolean; first: boolean; providers: string[] }> {
  const db = await getDb();
  const config = authConfig();
  const [first, allowed] = await Promise.all([hasAccounts(db).then((any) => !any), signupsAllowed(db, config)]);
  return { allowed, first, providers: Object.keys(socialProviders(config)) };
}

/** What the admin page edits: the defaults and whether visitors may sign up. */
export async function adminSettings(actor: Actor): Promise<{ defaults: CompressionSettings; signupsOpen: boolean }> {
  assertAdmin(actor);
  const db = await getDb();
  const [defaults, signupsOpen] = await Promise.all([readDefaults(db), readSignupsOpen(db)]);
  return { defaults: defaults.settings, signupsOpen };
}

export async function saveDefaults(actor: Actor, input: unknown, knownModels?: string[] | null): Promise<CompressionSettings> {
  assertAdmin(actor);
  return (await writeDefaults(await getDb(), parseSettings(input, knownModels))).settings;
}

export async function setSignupsOpen(actor: Actor, open: unknown): Promise<{ open: boolean }> {
  assertAdmin(actor);
  const value = parse(signupsOpenInput, open);
  await writeSignupsOpen(await getDb(), value);
  return { open: value };
}

export async function modelInfo() {
  const endpoint = await getModelEndpoint();
  return { demo: endpoint.demo, defaultModel: await startingModel(process.env, endpoint), models: await listModels(endpoint) };
}

/** For pages, which render without it: null when the model endpoint cannot be set up. */
export async function modelInfoIfAvailable() {
  try {
    return await modelInfo();
  } catch {
    return null;
  }
}
