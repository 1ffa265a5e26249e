// The fault suite's own database, so it never disturbs the integration suite's.
import pg from "pg";

export const FAULTS_DATABASE_URL = process.env.FAULTS_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/strata_faults";

export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
