// The e2e database: created when missing, emptied before a run.
import pg from "pg";

export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/strata_e2e";

const TABLES = ["CompactionAttempt", "Compaction", "Message", "Conversation", "Settings"];

export async function prepareDatabase(url = E2E_DATABASE_URL): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ""));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Unexpected e2e database name "${name}".`);

  const adminUrl = new URL(url);
  adminUrl.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const present = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = ANY($1)",
      [TABLES],
    );
    const names = present.rows.map((row) => `"${row.table_name}"`);
    if (names.length) await client.query(`TRUNCATE ${names.join(", ")} RESTART IDENTITY CASCADE`);
  } finally {
    await client.end();
  }
}
