// The e2e database: created when missing, migrated and emptied before a run.
import pg from "pg";
import { resetDatabase } from "../../../lib/db/admin";

export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/strata_e2e";

export function prepareDatabase(url = E2E_DATABASE_URL): Promise<void> {
  return resetDatabase(url);
}

/** Runs `write` in one transaction on the e2e database (tests seed what no model needs to make). */
export async function seedInTransaction(write: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query("BEGIN");
    await write(client);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    await client.end();
  }
}
