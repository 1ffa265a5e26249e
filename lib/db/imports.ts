// The rows that track imports (ConversationImport): taken before the upload is read, so
// a second import of the same user is refused (409) without reading its body, moved
// through its states by lib/chat/imports.ts, and read back by the owner only.
import { randomUUID } from "node:crypto";
import type { Db } from "./client.ts";
import type { ImportState } from "./generated/client.ts";
import { AppError, notFound } from "../errors.ts";
import type { ImportView } from "../views";

// An active import whose process stopped beating this long ago died with that process;
// its transaction rolled back, so nothing of it is stored. Heartbeats come every few
// seconds (lib/chat/imports.ts).
const STALE_SECONDS = 60;
// Finished rows are kept this long for their result, then dropped when the user imports again.
const KEEP_DAYS = 7;

export const ACTIVE_STATES = ["receiving", "queued", "running"] as const satisfies readonly ImportState[];
const DIED = "The server stopped during the import; nothing was stored. Import the file again.";

/**
 * Records a new import for `userId`, or refuses with 409 while another is active.
 * `heldHere` are imports this process is still working on (on the embedded database
 * they do not beat: the import's transaction holds its only connection).
 */
export async function claimImport(db: Db, userId: string, heldHere: readonly string[]): Promise<string> {
  await db.conversationImport.updateMany({
    where: {
      userId,
      state: { in: [...ACTIVE_STATES] },
      updatedAt: { lt: new Date(Date.now() - STALE_SECONDS * 1000) },
      id: { notIn: [...heldHere] },
    },
    data: { state: "failed", error: DIED },
  });
  await db.conversationImport.deleteMany({
    where: { userId, state: { in: ["done", "failed"] }, updatedAt: { lt: new Date(Date.now() - KEEP_DAYS * 86_400_000) } },
  });
  const id = randomUUID();
  // ON CONFLICT against the partial unique index: the check and the insert are one
  // statement, so two simultaneous first requests cannot both pass.
  const inserted = await db.$executeRaw`
    INSERT INTO "ConversationImport" ("id", "userId") VALUES (${id}, ${userId})
    ON CONFLICT ("userId") WHERE "state" IN ('receiving', 'queued', 'running') DO NOTHING`;
  if (inserted === 1) return id;
  const active = await db.conversationImport.findFirst({ where: { userId, state: { in: [...ACTIVE_STATES] } }, select: { id: true } });
  throw new AppError(
    "conflict",
    `Another import of yours is still in progress${active ? ` (${active.id})` : ""}; one import at a time — wait for it to finish, then try again.`,
  );
}

export type ImportUpdate = Partial<{ state: ImportState; bytes: number; messagesDone: number; conversationId: string; error: string }>;

/** Moves an active import on (and beats its heartbeat); a finished one (done or failed) never changes again. */
export async function updateImport(db: Db, userId: string, id: string, update: ImportUpdate): Promise<void> {
  await db.conversationImport.updateMany({ where: { id, userId, state: { in: [...ACTIVE_STATES] } }, data: { ...update, updatedAt: new Date() } });
}

/** The owner's view of an import; 404 for anyone else. `live` overrides the stored progress when this process runs it. */
export async function getImport(db: Db, userId: string, id: string, live?: { messagesDone: number; bytes: number }): Promise<ImportView> {
  const row = await db.conversationImport.findFirst({ where: { id, userId } });
  if (!row) throw notFound("import", id);
  const stale = !live && (ACTIVE_STATES as readonly string[]).includes(row.state) && row.updatedAt.getTime() < Date.now() - STALE_SECONDS * 1000;
  const base = { id: row.id, bytes: live?.bytes ?? row.bytes, messagesDone: live?.messagesDone ?? row.messagesDone, createdAt: row.createdAt.toISOString() };
  if (stale) return { ...base, state: "failed", error: DIED };
  switch (row.state) {
    case "done":
      return { ...base, state: "done", conversationId: row.conversationId ?? "" };
    case "failed":
      return { ...base, state: "failed", error: row.error ?? "The import failed." };
    default:
      return { ...base, state: row.state };
  }
}
