// Personal API tokens as the api-key plugin stores them (hashed). Creating a token goes
// through the library; checking, listing and revoking are plain queries on its rows.
import type { Db } from "./client.ts";
import { notFound } from "../errors.ts";
import type { TokenView } from "../views";
import { toUser, type UserRecord } from "./users.ts";

export async function listTokens(db: Db, userId: string): Promise<TokenView[]> {
  const rows = await db.apikey.findMany({
    where: { referenceId: userId },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, start: true, createdAt: true, lastRequest: true, expiresAt: true },
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name ?? "",
    start: row.start,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastRequest?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  }));
}

/** Deletes the token row: the next request with it is refused. */
export async function revokeToken(db: Db, userId: string, tokenId: string): Promise<void> {
  const { count } = await db.apikey.deleteMany({ where: { id: tokenId, referenceId: userId } });
  if (count === 0) throw notFound("token", tokenId);
}

/** Deletes every token of the user (after a password change, if they ask); the number deleted. */
export async function revokeAllTokens(db: Db, userId: string): Promise<number> {
  return (await db.apikey.deleteMany({ where: { referenceId: userId } })).count;
}

/** A stored token row with its owner, as the turn path needs it to decide (lib/auth/tokens.ts). */
export type StoredToken = {
  id: string;
  enabled: boolean | null;
  expiresAt: Date | null;
  remaining: number | null;
  lastRequest: Date | null;
  user: UserRecord;
  /** The admin disabled the owner's account: the token is refused while it lasts. */
  userDisabled: boolean;
};

/**
 * The token stored under `hashedKey` and its owner, in one indexed read (the key column
 * is indexed): checking a token on every API call costs one round trip and no write.
 */
export async function findTokenByHash(db: Db, hashedKey: string): Promise<StoredToken | null> {
  const rows = await db.$queryRaw<
    { id: string; enabled: boolean | null; expiresAt: Date | null; remaining: number | null; lastRequest: Date | null; userId: string; email: string; name: string; role: string | null; banned: boolean | null }[]
  >`
    SELECT k.id, k.enabled, k."expiresAt", k.remaining, k."lastRequest", u.id AS "userId", u.email, u.name, u.role, u.banned
    FROM "Apikey" k JOIN "User" u ON u.id = k."referenceId"
    WHERE k.key = ${hashedKey}
    LIMIT 1`;
  const row = rows[0];
  if (!row) return null;
  const { userId, email, name, role, banned, ...token } = row;
  return { ...token, user: toUser({ id: userId, email, name, role }), userDisabled: banned === true };
}

/** Records that a token was used (the "last used" time its owner sees in the token list). */
export async function markTokenUsed(db: Db, tokenId: string): Promise<void> {
  // The time from this process, as the library writes it (the column has no time zone).
  await db.$executeRaw`UPDATE "Apikey" SET "lastRequest" = ${new Date()} WHERE id = ${tokenId}`;
}
