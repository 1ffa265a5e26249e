// Applies prisma/migrations to the app's database.
//
//   tsx scripts/migrate.ts               DATABASE_URL if set, else the embedded PGlite
//                                        data dir (STRATA_DATA_DIR or ./data/pglite)
//   tsx scripts/migrate.ts --create-db   first create the database named in DATABASE_URL
//                                        if it does not exist (connects to "postgres")
//   --migrations-dir <dir>               another migrations folder (default prisma/migrations)
//
// Exit code 0 on success (also when nothing was pending), 1 on any error.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { ensureDatabase } from "../lib/db/admin";
import { applyMigrations, MigrationError } from "../lib/db/migrate";

function parseArgs(argv: string[]) {
  const opts = { createDb: false, migrationsDir: undefined as string | undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--create-db") opts.createDb = true;
    else if (a === "--migrations-dir") opts.migrationsDir = path.resolve(argv[++i] ?? "");
    else if (a?.startsWith("--migrations-dir=")) opts.migrationsDir = path.resolve(a.slice("--migrations-dir=".length));
    else if (a === "-h" || a === "--help") {
      console.log("usage: tsx scripts/migrate.ts [--create-db] [--migrations-dir <dir>]");
      process.exit(0);
    } else throw new Error(`unknown argument: ${a}`);
  }
  return opts;
}

/** Redacts the password for logs. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}

/** Creates the database named in `url` on its server when it does not exist yet. */
export async function createDatabaseIfMissing(url: string, log: (m: string) => void = console.log): Promise<boolean> {
  const created = await ensureDatabase(url);
  if (created) log(`Created database ${decodeURIComponent(new URL(url).pathname.slice(1))}`);
  return created;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const log = (m: string) => console.log(`[migrate] ${m}`);
  const url = process.env.DATABASE_URL?.trim();

  if (url) {
    if (opts.createDb) await createDatabaseIfMissing(url, log);
    log(`Target: ${describeUrl(url)}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await applyMigrations(client, { migrationsDir: opts.migrationsDir, log });
    } finally {
      await client.end();
    }
    return;
  }

  if (opts.createDb) log("--create-db ignored: DATABASE_URL is not set (using embedded PGlite)");
  const dataDir = path.resolve(process.env.STRATA_DATA_DIR?.trim() || path.join("data", "pglite"));
  // PGlite does not create parent folders.
  fs.mkdirSync(dataDir, { recursive: true });
  log(`Target: embedded PGlite at ${dataDir}`);
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(dataDir);
  try {
    await applyMigrations(db, { migrationsDir: opts.migrationsDir, log });
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  if (err instanceof MigrationError) console.error(`[migrate] ${err.code}: ${err.message}`);
  else console.error("[migrate] failed:", err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
