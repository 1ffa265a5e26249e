// The upgrade path: a database from before accounts (its conversations and its one
// global settings row) migrates, nobody can see its data, and the first account created
// afterwards receives all of it and becomes the admin; the next account gets nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { closeDb, getDb } from "../../lib/db/client";
import { dropDatabase, ensureDatabase } from "../../lib/db/admin";
import { applyMigrations, readMigrations } from "../../lib/db/migrate";
import { DEFAULT_SETTINGS } from "../../lib/compression/settings";
import { signUp, uniqueEmail } from "../support/accounts";

const MIGRATIONS = path.resolve(__dirname, "..", "..", "prisma", "migrations");
const FIRST_WITH_ACCOUNTS = readMigrations(MIGRATIONS).findIndex((migration) => migration.name.endsWith("_accounts"));
const runUrl = process.env.DATABASE_URL!;
const upgradeUrl = (() => {
  const url = new URL(runUrl);
  url.pathname = `${url.pathname}_upgrade`;
  return url.toString();
})();

const LEGACY_CONVERSATION = "0190a000-0000-7000-8000-0000000000aa";
const LEGACY_SETTINGS = { ...DEFAULT_SETTINGS, threshold: 0.7, keepRecentCount: 4, strategy: "structured" };

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: upgradeUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database as the app left it before accounts: migrations up to then, one conversation, the global settings. */
async function legacyDatabase(): Promise<void> {
  await dropDatabase(upgradeUrl);
  await ensureDatabase(upgradeUrl);
  const old = fs.mkdtempSync(path.join(os.tmpdir(), "strata-legacy-"));
  for (const migration of readMigrations(MIGRATIONS).slice(0, FIRST_WITH_ACCOUNTS)) {
    fs.cpSync(path.join(MIGRATIONS, migration.name), path.join(old, migration.name), { recursive: true });
  }
  await withClient(async (client) => {
    await applyMigrations(client, { migrationsDir: old });
    await client.query(
      `INSERT INTO "Conversation" (id, title, model, "lastSeq", "updatedAt") VALUES ($1, 'From before accounts', 'gpt-4o-mini', 2, now())`,
      [LEGACY_CONVERSATION],
    );
    await client.query(
      `INSERT INTO "Message" (id, "conversationId", seq, role, content, "tokenCount", "updatedAt") VALUES
       (gen_random_uuid()::text, $1, 1, 'user', 'An old question', 5, now()),
       (gen_random_uuid()::text, $1, 2, 'assistant', 'An old answer', 5, now())`,
      [LEGACY_CONVERSATION],
    );
    await client.query(`INSERT INTO "Settings" (id, "values", "updatedAt") VALUES (1, $1, now())`, [JSON.stringify(LEGACY_SETTINGS)]);
  });
  fs.rmSync(old, { recursive: true, force: true });
}

beforeAll(async () => {
  expect(FIRST_WITH_ACCOUNTS).toBeGreaterThan(0);
  await legacyDatabase();
  // The app opens (and migrates) the upgraded database like any start-up.
  await closeDb();
  process.env.DATABASE_URL = upgradeUrl;
});

afterAll(async () => {
  await closeDb();
  process.env.DATABASE_URL = runUrl;
  await dropDatabase(upgradeUrl);
});

describe("upgrading a single-user database", () => {
  it("keeps the data, owned by nobody until the first account, which gets it all and is the admin", async () => {
    // Start-up applies the new migrations; the old conversation is nobody's yet.
    await getDb();
    const stranded = await withClient((client) => client.query(`SELECT "userId" FROM "Conversation"`));
    expect(stranded.rows).toEqual([{ userId: null }]);

    // Two sign-ups at once: exactly one of them is the first account.
    const both = await Promise.all([signUp(uniqueEmail("first")), signUp(uniqueEmail("second"))]);
    expect(both.map((user) => user.role).sort()).toEqual(["admin", "user"]);
    const first = both.find((user) => user.role === "admin")!;
    const second = both.find((user) => user.role === "user")!;
    const conversations = await ops.listConversations(first);
    expect(conversations.map((c) => c.id)).toEqual([LEGACY_CONVERSATION]);
    const timeline = await ops.timeline(first, { conversationId: LEGACY_CONVERSATION });
    expect(timeline.items.map((item) => (item.type === "message" ? item.message.content : ""))).toEqual(["An old question", "An old answer"]);
    const settings = await ops.conversationSettings(first, LEGACY_CONVERSATION);
    expect(settings.settings).toMatchObject({ threshold: 0.7, keepRecentCount: 4, strategy: "structured" });
    expect(settings.sources).toMatchObject({ threshold: "user", keepRecentCount: "user", strategy: "user", enabled: "default" });

    expect(await ops.listConversations(second)).toEqual([]);
    await expect(ops.getConversation(second, LEGACY_CONVERSATION)).rejects.toMatchObject({ code: "not_found" });
    expect(await ops.getSettings(second)).toEqual(DEFAULT_SETTINGS);
  });
});
