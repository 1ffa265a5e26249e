// Imports of JSON exports as jobs with progress (POST /api/conversations/import, GET
// /api/imports/:id).
//
// How the bytes reach the job: the upload is spooled to a temporary file while it is
// received (the byte limit enforced as it streams), and the job then reads that file
// with the streaming importer (lib/db/import.ts) inside one transaction. Spooling first,
// rather than importing straight from the request, means a slow or stalled upload never
// holds a database connection or an open transaction: the transaction lasts only as long
// as the database work, and a connection is taken only when a slot is free. The job runs
// in the process that received the file (the file is local to it), so it is not a
// pg-boss job; its state lives in the ConversationImport table, which every process can
// read, and a process that dies mid-import rolls its transaction back (nothing stored)
// and stops beating, so its import is then reported failed.
//
// Limits: one active import per user (409, lib/db/imports.ts); at most MAX_RUNNING
// imports write at once per process (each holds one of the pool's 10 connections for
// its transaction, so most of the pool stays free for everyone else); at most
// MAX_WAITING more wait for a slot, beyond that 503 with Retry-After. On the embedded
// database (PGlite, one connection) the import's transaction holds that connection, so
// other requests' queries wait for it there: the embedded database is for one person.
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { getDb, getDbHandle } from "../db/client";
import { readFile } from "node:fs/promises";
import { importConversations } from "../db/import";
import { importMarkdownTranscript } from "./markdown-import";
import { claimImport, getImport, updateImport, type ImportUpdate } from "../db/imports";
import { AppError, toActionError } from "../errors";
import { logger } from "../log/logger";
import type { ConversationView, ImportView } from "../views";
import type { Actor } from "./operations";
import { idSchema } from "./inputs";

export const MAX_RUNNING = 2;
export const MAX_WAITING = 16;
/** Seconds a refused (503) client is told to wait. */
export const RETRY_AFTER_SECONDS = 10;
// A heartbeat (and progress) is written at most this often.
const BEAT_MS = 2_000;

// A spooled file older than this belongs to a process that died mid-import (a running
// import's transaction times out long before).
const ORPHAN_MS = 60 * 60_000;

type Live = { userId: string; bytes: number; messagesDone: number };
type Registry = { live: Map<string, Live>; running: number; queue: (() => void)[]; swept: boolean };
const holder = globalThis as unknown as { strataImports?: Registry };
const registry = (holder.strataImports ??= { live: new Map(), running: 0, queue: [], swept: false });
const spoolDir = () => path.join(tmpdir(), "strata-imports");

export type StartedImport = {
  id: string;
  /** Settles when the import is stored (the new conversation) or refused (the AppError). */
  finished: Promise<ConversationView>;
};

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    "payload_too_large",
    `The file is larger than the import limit of ${maxBytes.toLocaleString("en-US")} bytes (STRATA_MAX_IMPORT_BYTES).`,
  );
}

/** Writes progress at most every BEAT_MS, never two at once, without making the caller wait. */
function heartbeat(userId: string, id: string, enabled: boolean): (update: ImportUpdate) => void {
  let last = Date.now();
  let writing = false;
  return (update) => {
    if (!enabled || writing || Date.now() - last < BEAT_MS) return;
    writing = true;
    last = Date.now();
    void getDb()
      .then((db) => updateImport(db, userId, id, update))
      .catch((error: unknown) => logger.warn({ importId: id, err: String(error) }, "import progress not recorded"))
      .finally(() => (writing = false));
  };
}

async function spool(id: string, body: ReadableStream<Uint8Array> | null, maxBytes: number, beat: (update: ImportUpdate) => void): Promise<{ file: string; bytes: number }> {
  const dir = spoolDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${id}.json`);
  const handle = await open(file, "w", 0o600);
  let bytes = 0;
  try {
    if (body) {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read().catch(() => {
          throw new AppError("invalid_input", "The upload was interrupted; nothing was stored.");
        });
        if (done) break;
        bytes += value.byteLength;
        if (bytes > maxBytes) {
          // Refused as soon as the limit is passed: the rest of the body is not read.
          await reader.cancel().catch(() => {});
          throw tooLarge(maxBytes);
        }
        await handle.write(value);
        registry.live.get(id)!.bytes = bytes;
        beat({ bytes });
      }
    }
    return { file, bytes };
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  } finally {
    await handle.close();
  }
}

/** Removes the spooled files of processes that died mid-import (once per process). */
async function sweepOrphans(): Promise<void> {
  if (registry.swept) return;
  registry.swept = true;
  const names = await readdir(spoolDir()).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(spoolDir(), name);
    const info = await stat(file).catch(() => null);
    if (info && Date.now() - info.mtimeMs > ORPHAN_MS) await rm(file, { force: true });
  }
}

async function takeSlot(): Promise<void> {
  if (registry.running < MAX_RUNNING) {
    registry.running++;
    return;
  }
  await new Promise<void>((resolve) => registry.queue.push(resolve));
}

function releaseSlot(): void {
  const next = registry.queue.shift();
  if (next) next();
  else registry.running--;
}

/** What the upload is: a JSON export (one conversation or a bulk file of many) or a Markdown transcript. */
export type ImportKind = "json" | "markdown";

async function run(id: string, userId: string, file: string, kind: ImportKind, beat: (update: ImportUpdate) => void): Promise<ConversationView> {
  const db = await getDb();
  // Beats while it waits for a slot and between batches, so no other process takes it for dead.
  const ticking = setInterval(() => beat({ messagesDone: registry.live.get(id)?.messagesDone ?? 0 }), BEAT_MS);
  try {
    await takeSlot();
    try {
      await updateImport(db, userId, id, { state: "running" });
      const progress = (messagesDone: number) => {
        registry.live.get(id)!.messagesDone = messagesDone;
        beat({ messagesDone });
      };
      // A bulk file's conversations are stored one transaction each; the job names the first.
      const stored =
        kind === "markdown"
          ? [await importMarkdownTranscript(db, userId, await readFile(file, "utf8"))]
          : await importConversations(db, userId, createReadStream(file), progress);
      const conversation = stored[0]!;
      const messagesDone = stored.reduce((sum, view) => sum + view.messageCount, 0);
      await updateImport(db, userId, id, { state: "done", conversationId: conversation.id, messagesDone });
      return conversation;
    } finally {
      releaseSlot();
    }
  } catch (error) {
    const messagesDone = registry.live.get(id)?.messagesDone ?? 0;
    await updateImport(db, userId, id, { state: "failed", error: toActionError(error).message, messagesDone }).catch((cause: unknown) =>
      logger.warn({ importId: id, err: String(cause) }, "import failure not recorded"),
    );
    throw error;
  } finally {
    clearInterval(ticking);
    registry.live.delete(id);
    await rm(file, { force: true });
  }
}

/**
 * Receives an upload and starts importing it: resolves once the file is received (413 past
 * `maxBytes`, 409 while the user has another import, 503 when too many wait).
 */
export async function startImport(
  actor: Actor,
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  declaredBytes: number,
  format: ImportKind = "json",
): Promise<StartedImport> {
  if (declaredBytes > maxBytes) throw tooLarge(maxBytes);
  if (registry.queue.length >= MAX_WAITING) {
    throw new AppError("unavailable", `Too many imports are in progress on the server; try again in ${RETRY_AFTER_SECONDS} seconds.`);
  }
  void sweepOrphans().catch((error: unknown) => logger.warn({ err: String(error) }, "old import files not removed"));
  const { db, kind } = await getDbHandle();
  const id = await claimImport(db, actor.id, [...registry.live.keys()]);
  registry.live.set(id, { userId: actor.id, bytes: 0, messagesDone: 0 });
  // On the embedded database the import's transaction holds its only connection: a
  // progress write would wait for the end of the import. One process, so the live
  // registry is the progress there.
  const beat = heartbeat(actor.id, id, kind === "postgres");
  let received: { file: string; bytes: number };
  try {
    received = await spool(id, body, maxBytes, beat);
    await updateImport(db, actor.id, id, { state: "queued", bytes: received.bytes });
  } catch (error) {
    registry.live.delete(id);
    await updateImport(db, actor.id, id, { state: "failed", error: toActionError(error).message }).catch(() => {});
    throw error;
  }
  const finished = run(id, actor.id, received.file, format, beat);
  // Whoever polls learns the outcome from the table; an unobserved refusal is not a crash.
  finished.catch(() => {});
  logger.info({ importId: id, bytes: received.bytes }, "import received");
  return { id, finished };
}

/** An import's state for its owner (404 for anyone else, or an id that is not one). */
export async function importStatus(actor: Actor, id: string): Promise<ImportView> {
  // Not echoed: an id that is not one may be anything the URL held.
  if (!idSchema.safeParse(id).success) throw new AppError("not_found", "No such import.");
  const live = registry.live.get(id);
  return getImport(await getDb(), actor.id, id, live && live.userId === actor.id ? live : undefined);
}
