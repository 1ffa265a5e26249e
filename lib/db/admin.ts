// Whole databases on a PostgreSQL server: create, reset, drop. Used by the migrate
// script, the test suites and the benchmarks; the app itself never calls these.
import pg from "pg";
import { applyMigrations } from "./migrate";

const DUPLICATE_DATABASE = "42P04";

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

function parse(url: string): { name: string; adminUrl: string } {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ""));
  if (!name) throw new Error("The database URL names no database.");
  target.pathname = "/postgres";
  return { name, adminUrl: target.toString() };
}

async function withAdmin<T>(url: string, work: (client: pg.Client, name: string) => Promise<T>): Promise<T> {
  const { name, adminUrl } = parse(url);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client, name);
  } finally {
    await client.end();
  }
}

/** Creates the database named in `url` when it does not exist; true when it was created. */
export function ensureDatabase(url: string): Promise<boolean> {
  return withAdmin(url, async (client, name) => {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
      return true;
    } catch (error) {
      // Another process created it between the check and CREATE.
      if ((error as { code?: string }).code === DUPLICATE_DATABASE) return false;
      throw error;
    }
  });
}

export async function dropDatabase(url: string): Promise<void> {
  await withAdmin(url, (client, name) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/** Creates the database if needed, applies the migrations and empties every table but the migration history. */
export async function resetDatabase(url: string): Promise<void> {
  await ensureDatabase(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await applyMigrations(client);
    const { rows } = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
    );
    if (rows.length) await client.query(`TRUNCATE ${rows.map((row) => quoteIdent(row.name)).join(", ")} CASCADE`);
  } finally {
    await client.end();
  }
}
