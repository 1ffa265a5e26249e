// The database's health, for pages and for /api/health. Is the database reachable? Pages ask once per request before anything else reads it,
// so an outage shows one app-level error state with its cause in words (and a retry)
// instead of a half-rendered page whose empty lists read as lost data.
import path from "node:path";
import { getDb } from "./client.ts";
import { readMigrations } from "./migrate.ts";

type PgLikeError = { code?: unknown; message?: unknown; cause?: unknown };

/** The cause of a database failure in words a user can act on (no stack, no credentials); null when the error is not a recognized connection failure. */
export function databaseCause(error: unknown): string | null {
  const seen = new Set<unknown>();
  let current: unknown = error;
  const codes: string[] = [];
  const messages: string[] = [];
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const { code, message, cause } = current as PgLikeError;
    if (typeof code === "string") codes.push(code);
    if (typeof message === "string") messages.push(message);
    current = cause;
  }
  const text = messages.join(" ");
  if (codes.includes("3D000") || /database .* does not exist/i.test(text)) return "The database Strata is configured to use does not exist.";
  if (codes.includes("ECONNREFUSED") || /ECONNREFUSED|connect(ion)? refused/i.test(text)) return "The database server refuses connections: it is not running or not reachable.";
  if (codes.includes("28P01") || codes.includes("28000") || /password authentication|authentication failed/i.test(text)) return "The database refused Strata's credentials.";
  if (codes.includes("ETIMEDOUT") || /timeout|timed out/i.test(text)) return "The database server does not answer (the connection timed out).";
  if (codes.includes("57P03") || /starting up|shutting down/i.test(text)) return "The database server is starting up or shutting down.";
  if (/Can't reach database|connection terminated|Connection ended|server closed the connection/i.test(text)) return "The connection to the database server was lost.";
  return null;
}

/** databaseCause, with a plain fallback for anything unrecognized. */
export function describeDatabaseError(error: unknown): string {
  return databaseCause(error) ?? "The database cannot be reached.";
}

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
