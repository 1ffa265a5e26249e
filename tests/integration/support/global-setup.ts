// Runs once before the integration files: a fresh, migrated test database.
import pg from "pg";
import { applyMigrations } from "../../../lib/db/migrate";
import { TEST_DATABASE_URL, TEST_DB, ensureDatabase } from "./database";

export default async function setup(): Promise<void> {
  if (TEST_DB === "embedded") return;
  await ensureDatabase(TEST_DATABASE_URL);
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await applyMigrations(client);
    await client.query(`TRUNCATE "CompactionAttempt", "Compaction", "Message", "Conversation", "Settings" CASCADE`);
  } finally {
    await client.end();
  }
}
