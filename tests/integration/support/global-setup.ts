// Runs once before the integration files: a fresh, migrated database of this run's
// own (so parallel runs never truncate each other's data), dropped at the end.
import pg from "pg";
import { applyMigrations } from "../../../lib/db/migrate";
import { TEST_DB, ensureDatabase, dropDatabase } from "./database";

export default async function setup(): Promise<() => Promise<void>> {
  if (TEST_DB === "embedded") return async () => {};
  const base = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/strata_test";
  const url = new URL(base);
  url.pathname = `/${decodeURIComponent(url.pathname.slice(1))}_${process.pid}`;
  const runUrl = url.toString();
  await ensureDatabase(runUrl);
  const client = new pg.Client({ connectionString: runUrl });
  await client.connect();
  try {
    await applyMigrations(client);
  } finally {
    await client.end();
  }
  // Workers are started after global setup and inherit this.
  process.env.STRATA_RUN_DATABASE_URL = runUrl;
  return async () => {
    await dropDatabase(runUrl);
  };
}
