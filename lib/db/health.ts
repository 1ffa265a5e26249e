// The database's part of /api/health: reachable, and every migration of this build applied.
import path from "node:path";
import { getDb } from "./client";
import { readMigrations } from "./migrate";

export type DatabaseHealth = { ok: true; migrations: number } | { ok: false; cause: string };

export async function databaseHealth(timeoutMs = 3000): Promise<DatabaseHealth> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([check(), timeout]);
  } catch (error) {
    return { ok: false, cause: `database unreachable: ${error instanceof Error ? error.message : String(error)}` };
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
