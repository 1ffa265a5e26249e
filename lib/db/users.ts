// Reads of the accounts better-auth stores, for what the library does not answer itself.
import type { Db } from "./client.ts";
import { notFound } from "../errors.ts";

export type UserRole = "admin" | "user";
export type UserRecord = { id: string; email: string; name: string; role: UserRole };

export function toUser(row: { id: string; email: string; name: string; role: string | null }): UserRecord {
  return { id: row.id, email: row.email, name: row.name, role: row.role === "admin" ? "admin" : "user" };
}

const SELECT = { id: true, email: true, name: true, role: true } as const;

export async function findUserById(db: Db, id: string): Promise<UserRecord | null> {
  const row = await db.user.findUnique({ where: { id }, select: SELECT });
  return row ? toUser(row) : null;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRecord | null> {
  const row = await db.user.findUnique({ where: { email: email.toLowerCase() }, select: SELECT });
  return row ? toUser(row) : null;
}

/** Deletes one session (the one an account creation on the server opens and nobody uses). */
export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.session.deleteMany({ where: { token } });
}

/** A session row as the account page shows it: no token. */
export type SessionRow = { id: string; userAgent: string | null; createdAt: Date; updatedAt: Date };

/** The user's live sessions, newest first. */
export async function listSessions(db: Db, userId: string): Promise<SessionRow[]> {
  return db.session.findMany({
    where: { userId, expiresAt: { gt: new Date() } },
    orderBy: { updatedAt: "desc" },
    select: { id: true, userAgent: true, createdAt: true, updatedAt: true },
  });
}

/** Ends one of the user's sessions: its cookie is refused from the next request on. */
export async function deleteUserSession(db: Db, userId: string, sessionId: string): Promise<void> {
  const { count } = await db.session.deleteMany({ where: { id: sessionId, userId } });
  if (count === 0) throw notFound("session", sessionId);
}
