// The installation row (id = 1): auth secret, first account, sign-up switch and the
// admin's compression defaults. Migrations create it, but a reset test database has
// none, so every write makes sure it exists.
import { randomBytes } from "node:crypto";
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";
import { settingsFromStored } from "../compression/settings";
import { BUILT_IN, differences, overlay, storedLayer } from "../settings-layers";

/** The one row of Instance: the instance-wide state and the admin's settings defaults. */
export const INSTANCE_ID = 1;

type Tx = Prisma.TransactionClient;

async function ensureRow(db: Db | Tx): Promise<void> {
  await db.$executeRaw`INSERT INTO "Instance" ("id", "updatedAt") VALUES (${INSTANCE_ID}, now()) ON CONFLICT ("id") DO NOTHING`;
}

/**
 * The secret that signs session cookies: generated once and kept in the database, so
 * every process on this database agrees on it and a fresh install needs no setup.
 */
export async function storedAuthSecret(db: Db): Promise<string> {
  const candidate = randomBytes(32).toString("base64url");
  const rows = await db.$queryRaw<{ authSecret: string }[]>`
    INSERT INTO "Instance" ("id", "authSecret", "updatedAt") VALUES (${INSTANCE_ID}, ${candidate}, now())
    ON CONFLICT ("id") DO UPDATE SET "authSecret" = COALESCE("Instance"."authSecret", EXCLUDED."authSecret")
    RETURNING "authSecret"`;
  const secret = rows[0]?.authSecret;
  if (!secret) throw new Error("The auth secret could not be stored.");
  return secret;
}

export async function readSignupsOpen(db: Db): Promise<boolean> {
  const row = await db.instance.findUnique({ where: { id: INSTANCE_ID }, select: { signupsOpen: true } });
  return row?.signupsOpen ?? true;
}

export async function writeSignupsOpen(db: Db, open: boolean): Promise<void> {
  await ensureRow(db);
  await db.instance.update({ where: { id: INSTANCE_ID }, data: { signupsOpen: open } });
}

/** Whether any account exists (the first one becomes the admin). */
export async function hasAccounts(db: Db): Promise<boolean> {
  return (await db.user.findFirst({ select: { id: true } })) !== null;
}

/**
 * Makes `userId` the first account if no account claimed that yet: it becomes the admin
 * and receives what a database from before accounts held (its conversations and its
 * settings). One transaction under the installation row's lock, so of two accounts
 * created at once exactly one wins. Returns whether this one did.
 */
export async function claimFirstAccount(db: Db, userId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    await ensureRow(tx);
    const [row] = await tx.$queryRaw<{ firstUserId: string | null; legacySettings: unknown; compressionDefaults: unknown }[]>`
      SELECT "firstUserId", "legacySettings", "compressionDefaults" FROM "Instance" WHERE "id" = ${INSTANCE_ID} FOR UPDATE`;
    if (!row || row.firstUserId) return false;
    await tx.instance.update({ where: { id: INSTANCE_ID }, data: { firstUserId: userId, legacySettings: Prisma.DbNull } });
    await tx.user.update({ where: { id: userId }, data: { role: "admin" } });
    await tx.conversation.updateMany({ where: { userId: null }, data: { userId } });
    if (row.legacySettings) {
      // The old global settings were complete; keep only what differs from the defaults.
      const defaults = overlay(BUILT_IN, storedLayer(row.compressionDefaults), "default").settings;
      const values = differences(settingsFromStored(row.legacySettings), defaults) as Prisma.InputJsonValue;
      await tx.userSettings.upsert({ where: { userId }, create: { userId, values }, update: { values } });
    }
    return true;
  });
}
