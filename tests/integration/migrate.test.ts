// Migration runner (lib/db/migrate.ts) against real PostgreSQL (127.0.0.1:5432, user
// postgres, trust auth; override with STRATA_TEST_PG_URL) and in-memory PGlite.
// Every server test uses its own scratch database, dropped afterwards.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, MigrationError, readMigrations } from "@/lib/db/migrate";

const ROOT = path.resolve(__dirname, "..", "..");
const MIGRATIONS = path.join(ROOT, "prisma", "migrations");
const ADMIN_URL = process.env.STRATA_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const realMigrations = readMigrations(MIGRATIONS).map((m) => m.name);

// ---------------------------------------------------------------- helpers

const scratchDbs: string[] = [];
const tempDirs: string[] = [];

function dbUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Creates a fresh, empty server database and returns its URL. */
async function scratchDb(): Promise<string> {
  const name = `strata_migtest_${randomBytes(6).toString("hex")}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  scratchDbs.push(name);
  return dbUrl(name);
}

async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = await connect(url);
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A temp migrations dir: copies of the real migrations plus extra ones ({ name: sql }). */
function tempMigrations(extra: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "strata-migrations-"));
  tempDirs.push(dir);
  fs.cpSync(MIGRATIONS, dir, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

async function tableExists(q: (sql: string, p: unknown[]) => Promise<{ rows: unknown[] }>, table: string) {
  const r = await q("SELECT to_regclass($1) IS NOT NULL AS present", [`public."${table}"`]);
  return (r.rows[0] as { present: boolean }).present;
}

type MigRow = { migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number };
const ROWS_SQL = `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`;

// The Prisma 7 client is generated into lib/db/generated (git-ignored); make sure it exists.
type ClientModule = typeof import("@/lib/db/generated/client");
let PrismaClient: ClientModule["PrismaClient"];

beforeAll(async () => {
  const clientFile = path.join(ROOT, "lib", "db", "generated", "client.ts");
  if (!fs.existsSync(clientFile)) {
    execFileSync(process.execPath, [path.join(ROOT, "node_modules", "prisma", "build", "index.js"), "generate"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    });
  }
  ({ PrismaClient } = (await import(pathToFileURL(clientFile).href)) as ClientModule);
}, 120_000);

afterAll(async () => {
  await withAdmin(async (c) => {
    for (const name of scratchDbs) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function roundTrip(prisma: InstanceType<ClientModule["PrismaClient"]>) {
  const conv = await prisma.conversation.create({
    data: {
      title: "Hello",
      model: "test-model",
      messages: {
        create: [
          { seq: 1, role: "user", content: "hi", tokenCount: 1 },
          {
            seq: 2,
            role: "assistant",
            content: "hello",
            tokenCount: 2,
            toolCalls: [{ id: "c1", name: "search", arguments: "{}" }],
          },
        ],
      },
    },
  });
  const back = await prisma.conversation.findUnique({
    where: { id: conv.id },
    include: { messages: { orderBy: { seq: "asc" } } },
  });
  expect(back?.title).toBe("Hello");
  expect(back?.messages.map((m) => [m.seq, m.role, m.content, m.status, m.pinned])).toEqual([
    [1, "user", "hi", "complete", false],
    [2, "assistant", "hello", "complete", false],
  ]);
  expect(back?.messages[1]?.toolCalls).toEqual([{ id: "c1", name: "search", arguments: "{}" }]);
}

// ---------------------------------------------------------------- tests

describe("applyMigrations on PostgreSQL", () => {
  it("applies all migrations to a fresh database; Prisma 7 client works; re-run applies nothing", async () => {
    expect(realMigrations.length).toBeGreaterThan(0);
    const url = await scratchDb();
    const first = await withClient(url, (c) => applyMigrations(c, { migrationsDir: MIGRATIONS }));
    expect(first).toEqual({ applied: realMigrations, skipped: [] });

    const rows = await withClient(url, (c) => c.query<MigRow>(ROWS_SQL));
    expect(rows.rows.map((r) => r.migration_name)).toEqual(realMigrations);
    for (const r of rows.rows) {
      expect(r.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.applied_steps_count).toBe(1);
    }

    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
    try {
      await roundTrip(prisma);
    } finally {
      await prisma.$disconnect();
    }

    const again = await withClient(url, (c) => applyMigrations(c, { migrationsDir: MIGRATIONS }));
    expect(again).toEqual({ applied: [], skipped: realMigrations });
    const count = await withClient(url, (c) => c.query(`SELECT count(*)::int AS n FROM "_prisma_migrations"`));
    expect(count.rows[0].n).toBe(realMigrations.length);
  });

  it("creates _prisma_migrations exactly like Prisma", async () => {
    const url = await scratchDb();
    const cols = await withClient(url, async (c) => {
      await applyMigrations(c, { migrationsDir: MIGRATIONS });
      return c.query(
        `SELECT column_name, data_type, character_maximum_length AS len, is_nullable, column_default
           FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
      );
    });
    expect(cols.rows).toEqual([
      { column_name: "id", data_type: "character varying", len: 36, is_nullable: "NO", column_default: null },
      { column_name: "checksum", data_type: "character varying", len: 64, is_nullable: "NO", column_default: null },
      { column_name: "finished_at", data_type: "timestamp with time zone", len: null, is_nullable: "YES", column_default: null },
      { column_name: "migration_name", data_type: "character varying", len: 255, is_nullable: "NO", column_default: null },
      { column_name: "logs", data_type: "text", len: null, is_nullable: "YES", column_default: null },
      { column_name: "rolled_back_at", data_type: "timestamp with time zone", len: null, is_nullable: "YES", column_default: null },
      { column_name: "started_at", data_type: "timestamp with time zone", len: null, is_nullable: "NO", column_default: "now()" },
      { column_name: "applied_steps_count", data_type: "integer", len: null, is_nullable: "NO", column_default: "0" },
    ]);
  });

  it("three concurrent runners apply each migration exactly once", async () => {
    const url = await scratchDb();
    // A slow migration that counts its own executions widens the race window.
    const dir = tempMigrations({
      "29990101000000_counter": `CREATE TABLE "runs" ("n" INTEGER NOT NULL);\nSELECT pg_sleep(0.3);\nINSERT INTO "runs" VALUES (1);\n`,
    });
    const clients = await Promise.all([connect(url), connect(url), connect(url)]);
    try {
      const results = await Promise.all(clients.map((c) => applyMigrations(c, { migrationsDir: dir })));
      const all = [...realMigrations, "29990101000000_counter"];
      expect(results.flatMap((r) => r.applied).sort()).toEqual(all);
      // Exactly one runner did the work; the others found everything applied.
      expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1);
      for (const r of results) expect([...r.applied, ...r.skipped].sort()).toEqual(all);

      const c = clients[0]!;
      const rows = await c.query<MigRow>(ROWS_SQL);
      expect(rows.rows.map((r) => r.migration_name)).toEqual(all);
      const runs = await c.query(`SELECT count(*)::int AS n FROM "runs"`);
      expect(runs.rows[0].n).toBe(1);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it("rolls a failing migration back completely and reports it clearly", async () => {
    const url = await scratchDb();
    const dir = tempMigrations({
      "29990101000000_ok": `CREATE TABLE "ok_table" ("id" INTEGER);\n`,
      "29990102000000_broken":
        `-- creates a table, inserts, then fails\nCREATE TABLE "partial" ("id" INTEGER);\n` +
        `INSERT INTO "partial" VALUES (1);\nALTER TABLE "partial" ADD COLUMN "x" NO_SUCH_TYPE;\n`,
      "29990103000000_after": `CREATE TABLE "after_table" ("id" INTEGER);\n`,
    });
    await withClient(url, async (c) => {
      const err = await applyMigrations(c, { migrationsDir: dir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MigrationError);
      const me = err as MigrationError;
      expect(me.code).toBe("MIGRATION_FAILED");
      expect(me.migration).toBe("29990102000000_broken");
      expect(me.message).toContain('Migration "29990102000000_broken" failed and was rolled back');
      expect(me.message).toContain('type "no_such_type" does not exist');
      expect(me.message).toContain("line 4");

      const q = c.query.bind(c) as (s: string, p: unknown[]) => Promise<{ rows: unknown[] }>;
      expect(await tableExists(q, "ok_table")).toBe(true);
      expect(await tableExists(q, "partial")).toBe(false);
      expect(await tableExists(q, "after_table")).toBe(false);
      const rows = await c.query<MigRow>(ROWS_SQL);
      expect(rows.rows.map((r) => r.migration_name)).toEqual([...realMigrations, "29990101000000_ok"]);
      // The connection is still usable and the lock was released: a fixed file applies.
      fs.writeFileSync(path.join(dir, "29990102000000_broken", "migration.sql"), `CREATE TABLE "partial" ("id" INTEGER);\n`);
      const retry = await applyMigrations(c, { migrationsDir: dir });
      expect(retry.applied).toEqual(["29990102000000_broken", "29990103000000_after"]);
    });
  });

  it("refuses to run when an applied migration's checksum changed", async () => {
    const url = await scratchDb();
    const dir = tempMigrations({ "29990101000000_edit_me": `CREATE TABLE "edit_me" ("id" INTEGER);\n` });
    await withClient(url, async (c) => {
      await applyMigrations(c, { migrationsDir: dir });
      fs.appendFileSync(path.join(dir, "29990101000000_edit_me", "migration.sql"), `-- edited\n`);
      fs.mkdirSync(path.join(dir, "29990102000000_pending"));
      fs.writeFileSync(path.join(dir, "29990102000000_pending", "migration.sql"), `CREATE TABLE "pending" ("id" INTEGER);\n`);

      const err = await applyMigrations(c, { migrationsDir: dir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MigrationError);
      expect((err as MigrationError).code).toBe("CHECKSUM_MISMATCH");
      expect((err as MigrationError).message).toContain('Migration "29990101000000_edit_me" was modified after it was applied');
      // Nothing was applied after the refusal.
      const q = c.query.bind(c) as (s: string, p: unknown[]) => Promise<{ rows: unknown[] }>;
      expect(await tableExists(q, "pending")).toBe(false);
    });
  });

  it("refuses to run over a failed migration recorded by the Prisma CLI", async () => {
    const url = await scratchDb();
    await withClient(url, async (c) => {
      await applyMigrations(c, { migrationsDir: MIGRATIONS });
      await c.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
         VALUES ('00000000-0000-0000-0000-000000000001', repeat('0', 64), '29990101000000_cli_failed', now(), 0)`,
      );
      const err = await applyMigrations(c, { migrationsDir: MIGRATIONS }).catch((e: unknown) => e);
      expect((err as MigrationError).code).toBe("FAILED_MIGRATION_IN_DB");
      // Marked as rolled back (what `prisma migrate resolve --rolled-back` does), it is ignored.
      await c.query(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '29990101000000_cli_failed'`);
      expect((await applyMigrations(c, { migrationsDir: MIGRATIONS })).applied).toEqual([]);
    });
  });

  it("accepts a pg Pool", async () => {
    const url = await scratchDb();
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    try {
      expect((await applyMigrations(pool, { migrationsDir: MIGRATIONS })).applied).toEqual(realMigrations);
      expect((await applyMigrations(pool, { migrationsDir: MIGRATIONS })).applied).toEqual([]);
      expect(pool.totalCount - pool.idleCount).toBe(0); // connection given back
    } finally {
      await pool.end();
    }
  });
});

describe("applyMigrations on in-memory PGlite", () => {
  it("applies all migrations; Prisma 7 client works; re-run (also concurrent) applies nothing", async () => {
    const db = new PGlite();
    try {
      const logs: string[] = [];
      expect(await applyMigrations(db, { migrationsDir: MIGRATIONS, log: (m) => logs.push(m) })).toEqual({
        applied: realMigrations,
        skipped: [],
      });
      expect(logs.some((l) => l.includes(realMigrations[0]!))).toBe(true);

      const prisma = new PrismaClient({ adapter: new PrismaPGlite(db) });
      await roundTrip(prisma);
      await prisma.$disconnect();

      const again = await Promise.all([
        applyMigrations(db, { migrationsDir: MIGRATIONS }),
        applyMigrations(db, { migrationsDir: MIGRATIONS }),
      ]);
      for (const r of again) expect(r).toEqual({ applied: [], skipped: realMigrations });
      const rows = await db.query<MigRow>(ROWS_SQL);
      expect(rows.rows.map((r) => r.migration_name)).toEqual(realMigrations);
      expect(rows.rows.every((r) => r.applied_steps_count === 1 && r.finished_at !== null)).toBe(true);
    } finally {
      await db.close();
    }
  }, 120_000); // PGlite compiles its WASM first: seconds on an idle machine, far more on a busy one

  it("rolls a failing migration back completely and refuses a changed checksum", async () => {
    const db = new PGlite();
    const q = db.query.bind(db) as (s: string, p: unknown[]) => Promise<{ rows: unknown[] }>;
    try {
      const dir = tempMigrations({
        "29990101000000_ok": `CREATE TABLE "ok_table" ("id" INTEGER);\n`,
        "29990102000000_broken": `CREATE TABLE "partial" ("id" INTEGER);\nINSERT INTO "partial" VALUES (1);\nSELECT 1/0;\n`,
      });
      const err = await applyMigrations(db, { migrationsDir: dir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MigrationError);
      expect((err as MigrationError).code).toBe("MIGRATION_FAILED");
      expect((err as MigrationError).message).toMatch(/"29990102000000_broken" failed and was rolled back.*division by zero/);
      expect(await tableExists(q, "ok_table")).toBe(true);
      expect(await tableExists(q, "partial")).toBe(false);
      const rows = await db.query<MigRow>(ROWS_SQL);
      expect(rows.rows.map((r) => r.migration_name)).toEqual([...realMigrations, "29990101000000_ok"]);

      fs.writeFileSync(path.join(dir, "29990101000000_ok", "migration.sql"), `CREATE TABLE "ok_table" ("id" BIGINT);\n`);
      const err2 = await applyMigrations(db, { migrationsDir: dir }).catch((e: unknown) => e);
      expect((err2 as MigrationError).code).toBe("CHECKSUM_MISMATCH");
      expect(await tableExists(q, "partial")).toBe(false);
    } finally {
      await db.close();
    }
  });
});

describe("readMigrations", () => {
  it("sorts folders by name, checksums the file bytes and rejects a folder without migration.sql", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "strata-migrations-"));
    tempDirs.push(dir);
    for (const name of ["20250102000000_b", "20250101000000_a"]) {
      fs.mkdirSync(path.join(dir, name));
      fs.writeFileSync(path.join(dir, name, "migration.sql"), "SELECT 1;\r\n");
    }
    fs.writeFileSync(path.join(dir, "migration_lock.toml"), 'provider = "postgresql"\n');
    const ms = readMigrations(dir);
    expect(ms.map((m) => m.name)).toEqual(["20250101000000_a", "20250102000000_b"]);
    // sha256("SELECT 1;\r\n") and, for LF checkouts, sha256("SELECT 1;\n")
    const sha = (s: string) => createHash("sha256").update(s).digest("hex");
    expect(ms[0]!.checksum).toBe(sha("SELECT 1;\r\n"));
    expect(ms[0]!.altChecksum).toBe(sha("SELECT 1;\n"));
    fs.mkdirSync(path.join(dir, "20250103000000_empty"));
    expect(() => readMigrations(dir)).toThrow(/has no migration\.sql/);
  });
});
