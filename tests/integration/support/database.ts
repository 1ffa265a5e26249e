// Which database the integration suite runs on: the real PostgreSQL server (default)
// or the embedded PGlite (STRATA_TEST_DB=embedded, in memory).
import pg from "pg";

export const TEST_DB = process.env.STRATA_TEST_DB === "embedded" ? "embedded" : "postgres";

function adminClient(url: string): { client: pg.Client; name: string } {
  const target = new URL(url);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  return { client: new pg.Client({ connectionString: admin.toString() }), name: decodeURIComponent(target.pathname.slice(1)) };
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function ensureDatabase(url: string): Promise<void> {
  const { client, name } = adminClient(url);
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${quoted(name)}`);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const { client, name } = adminClient(url);
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
