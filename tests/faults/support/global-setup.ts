// Once before the fault files: a fresh, migrated database.
import pg from "pg";
import { applyMigrations } from "../../../lib/db/migrate";
import { FAULTS_DATABASE_URL, ensureDatabase } from "./database";

export default async function setup(): Promise<void> {
  await ensureDatabase(FAULTS_DATABASE_URL);
  const client = new pg.Client({ connectionString: FAULTS_DATABASE_URL });
  await client.connect();
  try {
    await applyMigrations(client);
    await client.query(`TRUNCATE "CompactionAttempt", "Compaction", "Message", "Conversation", "Settings" CASCADE`);
  } finally {
    await client.end();
  }
}
