// Reads of the accounts better-auth stores, for what the library does not answer itself.
import type { Db } from "./client.ts";
import { AppError, notFound } from "../errors.ts";

export type UserRole = "admin" | "user";
export type UserRecord = { id: string; email: string; name: string; role: UserRole };

export function toUser(row: { id: string; email: string; name: string; role?: string | null | undefined }): UserRecord {
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

/** The library's password hash of the user's email + password account, or null (OAuth only). */
export async function credentialPasswordHash(db: Db, userId: string): Promise<string | null> {
  const row = await db.account.findFirst({ where: { userId, providerId: "credential" }, select: { password: true } });
  return row?.password ?? null;
}

const UNIQUE_VIOLATION = "P2002";

/** Sets the user's name and email (already validated); another account's email is a conflict. */
export async function updateProfile(db: Db, userId: string, profile: { name: string; email: string }): Promise<UserRecord> {
  try {
    const row = await db.user.update({ where: { id: userId }, data: { name: profile.name, email: profile.email.toLowerCase() }, select: SELECT });
    return toUser(row);
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new AppError("conflict", "Another account uses this email address already.");
    throw error;
  }
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * The enabled admins other than `userId`, counted with every admin row locked: two
 * admins demoting, disabling or deleting each other at once cannot both pass the
 * last-admin check.
 */
async function otherEnabledAdmins(tx: Tx, userId: string): Promise<number> {
  const rows = await tx.$queryRaw<{ id: string; banned: boolean | null }[]>`
    SELECT id, banned FROM "User" WHERE role = 'admin' ORDER BY id FOR UPDATE`;
  return rows.filter((row) => row.id !== userId && row.banned !== true).length;
}

/**
 * Deletes the user and everything of theirs: the foreign keys cascade from the user to
 * conversations (and from those to messages, compactions, attempts, tool allowances and
 * tool-server switches), sessions, accounts, API tokens and settings; imports and reset
 * links have no foreign key and go here. The last admin stays while others have accounts.
 */
export async function deleteUserAndData(db: Db, userId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { role: true } });
    if (!user) throw notFound("user", userId);
    if (user.role === "admin" && (await otherEnabledAdmins(tx, userId)) === 0) {
      const others = await tx.user.count({ where: { id: { not: userId } } });
      if (others > 0) {
        throw new AppError(
          "conflict",
          `You are the last admin, and ${others} other account${others === 1 ? "" : "s"} still exist${others === 1 ? "s" : ""}. Make someone else an admin first.`,
        );
      }
    }
    await tx.conversationImport.deleteMany({ where: { userId } });
    await tx.verification.deleteMany({ where: { value: userId, identifier: { startsWith: RESET_IDENTIFIER_PREFIX } } });
    await tx.user.delete({ where: { id: userId } });
    // The last account gone: the next one made is the first again, and so the admin.
    if ((await tx.user.count()) === 0) await tx.instance.updateMany({ data: { firstUserId: null } });
  });
}

/** How better-auth names a password reset in its Verification table (its value is the user id). */
export const RESET_IDENTIFIER_PREFIX = "reset-password:";

/** Forgets the user's earlier reset links: only the newest one works. */
export async function deleteResetLinks(db: Db, userId: string): Promise<void> {
  await db.verification.deleteMany({ where: { value: userId, identifier: { startsWith: RESET_IDENTIFIER_PREFIX } } });
}

/**
 * Disables or enables another user. Disabling ends every session of theirs in the same
 * transaction (their next request is signed out); their API tokens are refused while it
 * lasts (lib/auth/tokens.ts) and work again once enabled.
 */
export async function setUserDisabled(db: Db, actorId: string, userId: string, disabled: boolean): Promise<void> {
  if (actorId === userId) throw new AppError("conflict", "You cannot disable your own account.");
  await db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: userId }, data: { banned: disabled, banReason: null, banExpires: null } });
    if (count === 0) throw notFound("user", userId);
    if (disabled) await tx.session.deleteMany({ where: { userId } });
  });
}

/** Makes the user an admin or a user; the last enabled admin cannot be demoted. */
export async function setUserRole(db: Db, userId: string, role: UserRole): Promise<void> {
  await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { role: true } });
    if (!user) throw notFound("user", userId);
    if (role === "user" && user.role === "admin" && (await otherEnabledAdmins(tx, userId)) === 0) {
      throw new AppError("conflict", "This is the last admin: make someone else an admin first.");
    }
    await tx.user.update({ where: { id: userId }, data: { role } });
  });
}
