// Minimal Prisma-compatible migration runner (Prisma 7's `migrate deploy` needs a
// native engine that cannot be installed offline).
//
// - Reads Prisma's layout: <migrationsDir>/<folder>/migration.sql, applied in folder-name order.
// - Keeps Prisma's own `_prisma_migrations` table, created exactly as Prisma creates it,
//   with the same row semantics (sha256 hex checksum of the file, started_at /
//   finished_at, applied_steps_count = 1), so the standard Prisma CLI sees a normal
//   history wherever it can run.
// - One transaction per migration: a failing migration is rolled back completely
//   (its DDL and its bookkeeping row) and reported; earlier migrations stay applied.
// - Serialized across processes with pg_advisory_lock(72707369) (Prisma's key) and
//   within a process per connection object.
// - Refuses to run when an applied migration's file has changed (checksum mismatch) or
//   when the table records an unfinished (failed) migration left by the Prisma CLI.
//
// Works with a `pg` Client / PoolClient / Pool (real PostgreSQL) and with an
// in-process `@electric-sql/pglite` instance. No Next.js imports; the driver modules
// are only referenced as types, so nothing is bundled or loaded by this file.
//
// Caveat (same as Prisma on PostgreSQL): statements that cannot run inside a
// transaction block (CREATE INDEX CONCURRENTLY, ALTER SYSTEM, ...) are not supported,
// and a migration must not contain its own BEGIN/COMMIT.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import type { Client, Pool, PoolClient } from "pg";

/** Prisma's advisory lock key for migrations ("prisma" → 72707369). */
export const PRISMA_MIGRATE_LOCK_KEY = 72707369;

/** Statement Prisma's schema engine uses to create its bookkeeping table on PostgreSQL. */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// ---------------------------------------------------------------------------------
// Executor interface and the two adapters
// ---------------------------------------------------------------------------------

/** What the runner needs inside a transaction. */
export interface SqlSession {
  /** Parameterised statement; returns rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Multi-statement script, no parameters (simple-query protocol). */
  exec(sql: string): Promise<void>;
}

/** A database connection the runner can migrate. */
export interface MigrationExecutor extends SqlSession {
  /** Runs fn in one transaction: commit if it resolves, roll back completely if it throws. */
  transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T>;
  /** Cross-process exclusion. Optional `onWait` is called once if the lock is busy. */
  lock(onWait?: () => void): Promise<void>;
  unlock(): Promise<void>;
  /** Gives back anything the adapter acquired (e.g. a pooled client). */
  release(): Promise<void>;
}

type PgQueryable = Pick<Client, "query"> | PoolClient;

/** Adapter for node-postgres: a connected `Client`, a `PoolClient`, or a `Pool`. */
export function pgExecutor(target: Client | PoolClient | Pool): MigrationExecutor {
  let client: PgQueryable | null = isPgPool(target) ? null : (target as PgQueryable);
  let pooled: PoolClient | null = null;

  const conn = async (): Promise<PgQueryable> => {
    if (client) return client;
    // A Pool hands out different connections per query: transactions and session
    // advisory locks need one dedicated connection.
    pooled = await (target as Pool).connect();
    client = pooled;
    return client;
  };
  const session = (c: PgQueryable): SqlSession => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await c.query(sql, params);
      return res.rows as T[];
    },
    async exec(sql: string) {
      // No parameters → simple-query protocol, which accepts multiple statements.
      await c.query(sql);
    },
  });

  return {
    async query<T>(sql: string, params?: unknown[]) {
      return session(await conn()).query<T>(sql, params);
    },
    async exec(sql: string) {
      return session(await conn()).exec(sql);
    },
    async transaction<T>(fn: (tx: SqlSession) => Promise<T>) {
      const c = await conn();
      await c.query("BEGIN");
      let result: T;
      try {
        result = await fn(session(c));
      } catch (err) {
        try {
          await c.query("ROLLBACK");
        } catch {
          // Connection is gone: the server discards the transaction anyway.
        }
        throw err;
      }
      await c.query("COMMIT");
      return result;
    },
    async lock(onWait) {
      const c = await conn();
      const res = await c.query("SELECT pg_try_advisory_lock($1) AS locked", [PRISMA_MIGRATE_LOCK_KEY]);
      if ((res.rows[0] as { locked: boolean } | undefined)?.locked) return;
      onWait?.();
      await c.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
    },
    async unlock() {
      const c = await conn();
      await c.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
    },
    async release() {
      if (pooled) {
        pooled.release();
        pooled = null;
        client = null;
      }
    },
  };
}

type PGliteLike = Pick<PGlite, "query" | "exec" | "transaction">;

/** Adapter for an in-process PGlite instance (single connection). */
export function pgliteExecutor(db: PGliteLike): MigrationExecutor {
  const session = (c: Pick<PGliteTransaction, "query" | "exec">): SqlSession => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await c.query<T>(sql, params);
      return res.rows;
    },
    async exec(sql: string) {
      await c.exec(sql);
    },
  });
  const base = session(db);
  return {
    ...base,
    // PGlite's transaction() commits when fn resolves and rolls back when it throws.
    transaction: (fn) => db.transaction((tx) => fn(session(tx))),
    // PGlite is a single connection in this process; the advisory lock is harmless
    // but adds nothing over the in-process mutex in applyMigrations().
    async lock() {
      await db.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
    },
    async unlock() {
      await db.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
    },
    async release() {},
  };
}

/** Whether `x` is an object with a function under each of `names`. */
function hasMethods(x: unknown, ...names: string[]): x is object {
  return typeof x === "object" && x !== null && names.every((name) => typeof (x as Record<string, unknown>)[name] === "function");
}

function isPgPool(x: unknown): x is Pool {
  return hasMethods(x, "connect") && "totalCount" in x && "idleCount" in x;
}

function isPGlite(x: unknown): x is PGliteLike {
  return hasMethods(x, "exec", "transaction", "query");
}

function isExecutor(x: unknown): x is MigrationExecutor {
  return hasMethods(x, "lock", "unlock", "release");
}

export type MigrationTarget = MigrationExecutor | PGliteLike | Client | PoolClient | Pool;

function toExecutor(target: MigrationTarget): MigrationExecutor {
  if (isExecutor(target)) return target;
  if (isPGlite(target)) return pgliteExecutor(target);
  return pgExecutor(target as Client | PoolClient | Pool);
}

// ---------------------------------------------------------------------------------
// Migrations on disk
// ---------------------------------------------------------------------------------

export interface LocalMigration {
  /** Folder name, e.g. "20260101120000_init" — Prisma's migration_name. */
  name: string;
  sql: string;
  /** sha256 hex of the file's bytes, as Prisma computes it. */
  checksum: string;
  /** Also accepted when verifying: checksum of the file with CRLF turned into LF
   *  (Prisma accepts both, so a checkout with other line endings is not "modified"). */
  altChecksum: string;
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

export function readMigrations(migrationsDir: string): LocalMigration[] {
  if (!fs.existsSync(migrationsDir)) {
    throw new MigrationError("NO_MIGRATIONS_DIR", `Migrations folder not found: ${migrationsDir}`);
  }
  const folders = fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return folders.map((name) => {
    const file = path.join(migrationsDir, name, "migration.sql");
    if (!fs.existsSync(file)) {
      throw new MigrationError(
        "MISSING_MIGRATION_FILE",
        `Migration folder "${name}" has no migration.sql (${file}); restore the file or delete the folder.`,
      );
    }
    const bytes = fs.readFileSync(file);
    const sql = bytes.toString("utf8");
    return {
      name,
      sql,
      checksum: sha256(bytes),
      altChecksum: sha256(sql.replace(/\r\n/g, "\n")),
    };
  });
}

// ---------------------------------------------------------------------------------
// Runner
// ---------------------------------------------------------------------------------

export type MigrationErrorCode =
  | "NO_MIGRATIONS_DIR"
  | "MISSING_MIGRATION_FILE"
  | "CHECKSUM_MISMATCH"
  | "FAILED_MIGRATION_IN_DB"
  | "MIGRATION_FAILED";

export class MigrationError extends Error {
  readonly code: MigrationErrorCode;
  readonly migration: string | undefined;
  constructor(code: MigrationErrorCode, message: string, opts: { migration?: string | undefined; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "MigrationError";
    this.code = code;
    this.migration = opts.migration;
  }
}

export interface ApplyMigrationsOptions {
  /** Defaults to <cwd>/prisma/migrations. */
  migrationsDir?: string | undefined;
  /** Progress messages (default: silent). */
  log?: (message: string) => void;
}

export interface ApplyMigrationsResult {
  /** Migrations applied by this call, in order. */
  applied: string[];
  /** Local migrations that were already applied. */
  skipped: string[];
}

interface MigrationRow {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
  started_at: Date | string;
}

// Calls sharing one connection object must not interleave (a session-level advisory
// lock is re-entrant for the same connection, so it cannot separate them).
const inProcessQueues = new WeakMap<object, Promise<unknown>>();

/**
 * Applies every migration in `migrationsDir` that `_prisma_migrations` does not record
 * as applied, each in its own transaction. Safe to call on every start-up and from
 * several processes at once.
 */
export async function applyMigrations(
  target: MigrationTarget,
  options: ApplyMigrationsOptions = {},
): Promise<ApplyMigrationsResult> {
  const key = target as object;
  const previous = inProcessQueues.get(key) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => runLocked(target, options));
  inProcessQueues.set(key, run);
  try {
    return await run;
  } finally {
    if (inProcessQueues.get(key) === run) inProcessQueues.delete(key);
  }
}

async function runLocked(target: MigrationTarget, options: ApplyMigrationsOptions): Promise<ApplyMigrationsResult> {
  const migrationsDir = options.migrationsDir ?? path.join(process.cwd(), "prisma", "migrations");
  const log = options.log ?? (() => {});
  // Read (and validate) the files before touching the database.
  const local = readMigrations(migrationsDir);
  const db = toExecutor(target);

  try {
    await db.lock(() => log("Waiting for another migration run to finish (advisory lock 72707369) ..."));
    try {
      return await migrate(db, local, log);
    } finally {
      try {
        await db.unlock();
      } catch {
        // Connection lost: the server released the session lock with it.
      }
    }
  } finally {
    await db.release();
  }
}

async function migrate(
  db: MigrationExecutor,
  local: LocalMigration[],
  log: (message: string) => void,
): Promise<ApplyMigrationsResult> {
  await db.exec(CREATE_MIGRATIONS_TABLE);
  const rows = await db.query<MigrationRow>(
    `SELECT "id", "checksum", "migration_name", "finished_at", "rolled_back_at", "started_at"
       FROM "_prisma_migrations" ORDER BY "started_at", "migration_name"`,
  );

  // Rows with rolled_back_at set are ignored, as Prisma does (the migration counts as not applied).
  const live = rows.filter((r) => r.rolled_back_at === null);
  const failed = live.filter((r) => r.finished_at === null);
  if (failed.length > 0) {
    const names = failed.map((r) => `"${r.migration_name}"`).join(", ");
    throw new MigrationError(
      "FAILED_MIGRATION_IN_DB",
      `_prisma_migrations records unfinished (failed) migration(s) ${names}. ` +
        `Fix the database by hand, then mark them with \`prisma migrate resolve --rolled-back <name>\` ` +
        `(or set rolled_back_at on those rows) before migrating again.`,
      { migration: failed[0]?.migration_name },
    );
  }
  const appliedByName = new Map(live.map((r) => [r.migration_name, r]));

  for (const m of local) {
    const row = appliedByName.get(m.name);
    if (row && row.checksum !== m.checksum && row.checksum !== m.altChecksum) {
      throw new MigrationError(
        "CHECKSUM_MISMATCH",
        `Migration "${m.name}" was modified after it was applied: its checksum in _prisma_migrations is ` +
          `${row.checksum}, the file's is ${m.checksum}. Applied migrations must not be edited — restore ` +
          `the original migration.sql and put the change in a new migration.`,
        { migration: m.name },
      );
    }
  }

  const localNames = new Set(local.map((m) => m.name));
  const unknown = [...appliedByName.keys()].filter((n) => !localNames.has(n));
  if (unknown.length > 0) {
    log(`Warning: database has migration(s) not found locally: ${unknown.join(", ")}`);
  }

  const applied: string[] = [];
  const skipped: string[] = [];
  for (const m of local) {
    if (appliedByName.has(m.name)) {
      skipped.push(m.name);
      continue;
    }
    log(`Applying migration ${m.name}`);
    try {
      await db.transaction(async (tx) => {
        const id = randomUUID();
        await tx.query(
          `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "applied_steps_count")
           VALUES ($1, $2, $3, now(), 0)`,
          [id, m.checksum, m.name],
        );
        await tx.exec(m.sql);
        await tx.query(
          `UPDATE "_prisma_migrations" SET "finished_at" = clock_timestamp(), "applied_steps_count" = 1 WHERE "id" = $1`,
          [id],
        );
      });
    } catch (err) {
      throw new MigrationError(
        "MIGRATION_FAILED",
        `Migration "${m.name}" failed and was rolled back (nothing from it was applied` +
          `${applied.length ? `; applied before it in this run: ${applied.join(", ")}` : ""}): ${describeSqlError(err, m.sql)}`,
        { migration: m.name, cause: err },
      );
    }
    applied.push(m.name);
  }
  log(
    applied.length
      ? `Applied ${applied.length} migration(s); ${skipped.length} already applied.`
      : `Database is up to date (${skipped.length} migration(s) applied).`,
  );
  return { applied, skipped };
}

/** "message (SQLSTATE xxx) at line N: <statement line>" from a pg / PGlite error. */
function describeSqlError(err: unknown, sql: string): string {
  if (!(err instanceof Error)) return String(err);
  const e = err as Error & { code?: string; position?: string | number; detail?: string };
  let text = e.message;
  if (e.code) text += ` (SQLSTATE ${e.code})`;
  const pos = Number(e.position);
  if (Number.isFinite(pos) && pos > 0) {
    const before = sql.slice(0, pos - 1);
    const line = before.split("\n").length;
    const lineText = sql.split("\n")[line - 1]?.trim();
    text += ` at line ${line}${lineText ? `: ${lineText}` : ""}`;
  }
  if (e.detail) text += ` — ${e.detail}`;
  return text;
}
