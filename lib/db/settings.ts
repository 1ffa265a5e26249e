// Reads and writes the three layers of compression settings (see settings-layers.ts).
// Read fresh on every use (docs/design.md): a saved change applies on the next turn.
import type { Db } from "./client.ts";
import { INSTANCE_ID } from "./instance.ts";
import { Prisma } from "./generated/client.ts";
import { span } from "../log/timing.ts";
import { invalidInput, notFound } from "../errors.ts";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../compression/settings";
import {
  BUILT_IN,
  differences,
  overlay,
  overlayStrict,
  patchOverrides,
  resolveLayers,
  storedLayer,
  type OverridesPatch,
  type ResolvedSettings,
  type SettingsLayer,
} from "../settings-layers";

const json = (layer: SettingsLayer) => layer as Prisma.InputJsonValue;

async function storedDefaults(db: Db): Promise<unknown> {
  return (await db.instance.findUnique({ where: { id: INSTANCE_ID }, select: { compressionDefaults: true } }))?.compressionDefaults;
}

async function storedUserValues(db: Db, userId: string): Promise<unknown> {
  return (await db.userSettings.findUnique({ where: { userId }, select: { values: true } }))?.values;
}

/** The admin's defaults over the built-in ones. */
export async function readDefaults(db: Db): Promise<ResolvedSettings> {
  return resolveLayers({ defaults: await storedDefaults(db) });
}

/** What a user's conversations start from: the defaults and the user's own values. */
export async function readUserSettings(db: Db, userId: string): Promise<ResolvedSettings> {
  const [defaults, user] = await Promise.all([storedDefaults(db), storedUserValues(db, userId)]);
  return resolveLayers({ defaults, user });
}

/** The settings one of the user's conversations runs with, and where each value comes from. */
export function readSettings(db: Db, userId: string, conversationId: string): Promise<ResolvedSettings> {
  return span("settingsRead", () => readConversationSettings(db, userId, conversationId));
}

/**
 * The admin's defaults and the user's own layer as two columns ("settingsDefaults",
 * "settingsUser") of any statement that reads the conversation row, whose
 * "settingsOverrides" is the third layer: resolveLayers gives the settings.
 */
export function settingsLayerColumns(userId: string): Prisma.Sql {
  return Prisma.sql`(SELECT i."compressionDefaults" FROM "Instance" i WHERE i.id = ${INSTANCE_ID}) AS "settingsDefaults",
    (SELECT u."values" FROM "UserSettings" u WHERE u."userId" = ${userId}) AS "settingsUser"`;
}

async function readConversationSettings(db: Db, userId: string, conversationId: string): Promise<ResolvedSettings> {
  // Every turn that does not store a message first starts here: the three layers in one
  // round trip, the owner checked by the same row.
  const rows = await db.$queryRaw<{ settingsDefaults: unknown; settingsUser: unknown; settingsConversation: unknown }[]>`
    SELECT c."settingsOverrides" AS "settingsConversation", ${settingsLayerColumns(userId)}
    FROM "Conversation" c WHERE c.id = ${conversationId} AND c."userId" = ${userId}`;
  const row = rows[0];
  if (!row) throw notFound("conversation", conversationId);
  return resolveLayers({ defaults: row.settingsDefaults, user: row.settingsUser, conversation: row.settingsConversation });
}

/** Stores already-validated admin defaults (as their differences from the built-in ones). */
export async function writeDefaults(db: Db, settings: CompressionSettings): Promise<ResolvedSettings> {
  const values = json(differences(settings, DEFAULT_SETTINGS));
  await db.instance.upsert({
    where: { id: INSTANCE_ID },
    create: { id: INSTANCE_ID, compressionDefaults: values },
    update: { compressionDefaults: values },
  });
  return readDefaults(db);
}

/**
 * Stores what `change` makes of the user's settings, as their differences from the
 * instance defaults: a read and a write under the row's lock, so two saves at the same
 * moment (a settings page and a learned context window) both apply.
 */
async function changeUserSettings(db: Db, userId: string, change: (current: CompressionSettings) => CompressionSettings): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.userSettings.upsert({ where: { userId }, create: { userId }, update: {} });
    const [row] = await tx.$queryRaw<{ values: unknown }[]>`SELECT "values" FROM "UserSettings" WHERE "userId" = ${userId} FOR UPDATE`;
    const defaults = (await tx.instance.findUnique({ where: { id: INSTANCE_ID }, select: { compressionDefaults: true } }))?.compressionDefaults;
    const current = resolveLayers({ defaults, user: row?.values }).settings;
    const base = resolveLayers({ defaults }).settings;
    await tx.userSettings.update({ where: { userId }, data: { values: json(differences(change(current), base)) } });
  });
}

/** Stores already-validated settings as the user's: what differs from the defaults now. */
export async function writeUserSettings(db: Db, userId: string, settings: CompressionSettings): Promise<ResolvedSettings> {
  await changeUserSettings(db, userId, () => settings);
  return readUserSettings(db, userId);
}

/** Sets the user's context window for one model, keeping every other value of theirs. */
export async function writeUserContextWindow(db: Db, userId: string, model: string, tokens: number): Promise<void> {
  await changeUserSettings(db, userId, (current) => ({ ...current, contextWindowOverrides: { ...current.contextWindowOverrides, [model]: tokens } }));
}

/**
 * Applies `patch` to a conversation's overrides, refusing (field by field) a result that
 * breaks a rule together with the user's settings. One transaction under the
 * conversation's row lock, so two concurrent patches both apply.
 */
export async function updateConversationOverrides(
  db: Db,
  userId: string,
  conversationId: string,
  patch: OverridesPatch,
): Promise<ResolvedSettings> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ settingsOverrides: unknown }[]>`
      SELECT "settingsOverrides" FROM "Conversation" WHERE id = ${conversationId} AND "userId" = ${userId} FOR UPDATE`;
    if (locked.length === 0) throw notFound("conversation", conversationId);
    const [defaults, user] = await Promise.all([
      tx.instance.findUnique({ where: { id: INSTANCE_ID }, select: { compressionDefaults: true } }),
      tx.userSettings.findUnique({ where: { userId }, select: { values: true } }),
    ]);
    const base = overlay(overlay(BUILT_IN, storedLayer(defaults?.compressionDefaults), "default"), storedLayer(user?.values), "user");
    const overrides = patchOverrides(locked[0]!.settingsOverrides, patch);
    const checked = overlayStrict(base, overrides, "conversation");
    if (!checked.ok) throw invalidInput(checked.error);
    await tx.conversation.update({ where: { id: conversationId }, data: { settingsOverrides: json(overrides) } });
    return checked.resolved;
  });
}
