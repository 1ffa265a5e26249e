import { mkdirSync } from "node:fs";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import pg from "pg";
import { PrismaClient } from "./generated/client.ts";
import { applyMigrations } from "./migrate.ts";
import { logger } from "../log/logger.ts";
import { config } from "../config.ts";
import { AppError } from "../errors.ts";
import { recordSpan, timingEnabled } from "../log/timing.ts";
import { statementNamer } from "./statement-names.ts";

export type Db = PrismaClient;
export type DbKind = "postgres" | "embedded";

type DbHandle = { db: Db; kind: DbKind; close: () => Promise<void> };

// Kept on globalThis so Next's dev reloads and repeated imports share one client,
// and above all one PGlite instance: its data directory admits a single opener.
const globalForDb = globalThis as unknown as { strataDb?: Promise<DbHandle> | undefined; strataDbShutDown?: boolean };

export function embeddedDataDir(): string {
  return config().STRATA_DATA_DIR ?? path.join(process.cwd(), "data", "pglite");
}

// Prepared statements kept per connection (./statement-names.ts): the app's own
// repeating statements number well under this.
const PREPARED_STATEMENTS = { names: 300, seen: 2_000 };

/** STRATA_SERVER_TIMING=1: every query Prisma sends counts as a round trip of the request that made it. */
function timedClient(adapter: PrismaPg): Db {
  const client = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
  client.$on("query", (event) => recordSpan("db", Number(event.duration)));
  return client as unknown as Db;
}

async function openPostgres(connectionString: string): Promise<DbHandle> {
  if (config().STRATA_AUTO_MIGRATE === "1") {
    const migrationClient = new pg.Client({ connectionString });
    await migrationClient.connect();
    try {
      await applyMigrations(migrationClient);
    } finally {
      await migrationClient.end();
    }
  }
  const name = statementNamer(PREPARED_STATEMENTS);
  // The adapter's type asks for a string; undefined sends the query unnamed, which is what
  // the adapter itself does without a generator.
  const adapter = new PrismaPg({ connectionString, max: config().STRATA_DB_POOL_SIZE }, { statementNameGenerator: (query) => name(query) as string });
  const db = timingEnabled ? timedClient(adapter) : new PrismaClient({ adapter });
  return { db, kind: "postgres", close: () => db.$disconnect() };
}

async function openEmbedded(dataDir: string): Promise<DbHandle> {
  // "memory://" keeps an embedded database in RAM (tests); anything else is a folder.
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite(dataDir);
  await pglite.waitReady;
  await applyMigrations(pglite);
  const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  logger.info({ dataDir }, "embedded PostgreSQL (PGlite) ready");
  return {
    db,
    kind: "embedded",
    close: async () => {
      await db.$disconnect();
      await pglite.close();
    },
  };
}

function openDatabase(): Promise<DbHandle> {
  const url = config().DATABASE_URL;
  return url ? openPostgres(url) : openEmbedded(embeddedDataDir());
}

/** The database, opened (and migrated) on first use. */
export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

export function getDbHandle(): Promise<DbHandle> {
  if (globalForDb.strataDbShutDown) return Promise.reject(new AppError("unavailable", "The server is shutting down; try again in a moment."));
  if (!globalForDb.strataDb) {
    globalForDb.strataDb = openDatabase().catch((error: unknown) => {
      globalForDb.strataDb = undefined;
      throw error;
    });
  }
  return globalForDb.strataDb;
}

/**
 * Closes the shared database for the rest of the process (SIGTERM). A request that still
 * arrives on a kept-alive connection is answered 503 instead of opening the database
 * again: a reopened embedded database held the process open after the drain.
 */
export async function shutDownDb(): Promise<void> {
  globalForDb.strataDbShutDown = true;
  await closeDb();
}

/** Closes the shared database (tests, scripts). The next getDb() opens it again. */
export async function closeDb(): Promise<void> {
  const handle = globalForDb.strataDb;
  globalForDb.strataDb = undefined;
  if (handle) await (await handle).close();
}
