import type { Db } from "./client.ts";
import type { Prisma } from "./generated/client.ts";
import { type CompressionSettings, settingsFromStored } from "../compression/settings";

const SETTINGS_ID = 1;

/** Read fresh on every use (seed 003 REQ-3.5): a saved change applies on the next turn. */
export async function readSettings(db: Db): Promise<CompressionSettings> {
  const row = await db.settings.findUnique({ where: { id: SETTINGS_ID } });
  return settingsFromStored(row?.values);
}

/** Stores already-validated settings. */
export async function writeSettings(db: Db, settings: CompressionSettings): Promise<CompressionSettings> {
  const values = settings as unknown as Prisma.InputJsonValue;
  await db.settings.upsert({ where: { id: SETTINGS_ID }, create: { id: SETTINGS_ID, values }, update: { values } });
  return settings;
}
