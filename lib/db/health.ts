// The database's health, for pages and for /api/health. Is the database reachable? Pages ask once per request before anything else reads it,
// so an outage shows one app-level error state with its cause in words (and a retry)
// instead of a half-rendered page whose empty lists read as lost data.
import path from "node:path";
import { getDb } from "./client.ts";
import { readMigrations } from "./migrate.ts";
import { describeDatabaseError } from "./database-cause.ts";

/** Null when the database answers; otherwise what is wrong, in words. */
export async function databaseProblem(): Promise<string | null> {
  try {
    const db = await getDb();
    await db.$queryRaw`SELECT 1`;
    return null;
  } catch (error) {
    return describeDatabaseError(error);
  }
}

/** /api/health's database part: reachable, and every migration of this build applied. */
export type DatabaseHealth = { ok: true; migrations: number } | { ok: false; cause: string };

export async function databaseHealth(timeoutMs = 3000): Promise<DatabaseHealth> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([check(), timeout]);
  } catch (error) {
    return { ok: false, cause: `database unreachable: ${describeDatabaseError(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

async function check(): Promise<DatabaseHealth> {
  const db = await getDb();
  const rows = await db.$queryRaw<{ name: string }[]>`
    SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  const applied = new Set(rows.map((row) => row.name));
  const missing = readMigrations(path.join(process.cwd(), "prisma", "migrations"))
    .map((migration) => migration.name)
    .filter((name) => !applied.has(name));
  if (missing.length > 0) return { ok: false, cause: `migrations not applied: ${missing.join(", ")} (run npm run db:migrate)` };
  return { ok: true, migrations: applied.size };
}
