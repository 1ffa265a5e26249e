// Personal API tokens: made by better-auth's api-key plugin (it stores only a SHA-256
// hash); checked, listed and revoked through the db layer.
import { createHash } from "node:crypto";
import { z } from "zod";
import { getDb } from "../db/client";
import { findTokenByHash, listTokens, markTokenUsed, revokeAllTokens, revokeToken } from "../db/tokens";
import type { UserRecord } from "../db/users";
import { logger } from "../log/logger";
import type { TokenView } from "../views";
import { AppError } from "../errors";
import { TOKEN_LENGTH, TOKEN_PREFIX, getAuth } from "./auth";
import { ACCOUNT_DISABLED_MESSAGE } from "./account-disabled";

const tokenSchema = z.string().regex(new RegExp(`^${TOKEN_PREFIX}[A-Za-z]{${TOKEN_LENGTH}}$`));

/** The token of an `Authorization: Bearer <token>` header; anything else is refused as malformed. */
export function parseBearer(authorization: string): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  const token = tokenSchema.safeParse(match?.[1]);
  if (!token.success) {
    throw new AppError("unauthorized", `The Authorization header must be "Bearer ${TOKEN_PREFIX}…" with a personal API token.`);
  }
  return token.data;
}

// How stale a token's "last used" time may be: a write at most once a minute per token
// instead of one (two, with the library's) on every API call.
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The owner of a live token, or null for an unknown, disabled or expired one. Checked
 * against the stored row in one read, on every call (no cache): a revoked token is
 * refused by the very next request, on every instance. Tokens are made without a usage
 * quota; one that has a quota (`remaining`) is left to the library, which counts it.
 */
export async function userForToken(token: string): Promise<UserRecord | null> {
  const db = await getDb();
  const stored = await findTokenByHash(db, storedTokenHash(token));
  if (!stored || stored.enabled === false) return null;
  if (stored.userDisabled) throw new AppError("unauthorized", ACCOUNT_DISABLED_MESSAGE);
  if (stored.expiresAt && Date.now() > stored.expiresAt.getTime()) return null;
  if (stored.remaining !== null) {
    const result = await (await getAuth()).api.verifyApiKey({ body: { key: token } });
    return result.valid ? stored.user : null;
  }
  if (!stored.lastRequest || Date.now() - stored.lastRequest.getTime() > LAST_USED_RESOLUTION_MS) {
    // After the answer, never on its path; a failure only leaves the time older.
    void markTokenUsed(db, stored.id).catch((error: unknown) => logger.warn({ err: String(error) }, "could not record a token's last use"));
  }
  return stored.user;
}

/**
 * The hash the api-key plugin stores for `token` (SHA-256, base64url without padding),
 * computed on this thread: the plugin's own hasher goes through WebCrypto, whose job
 * hop cost more than the hash on every API call.
 */
export function storedTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export type CreatedToken = TokenView & { token: string };

/** Creates a token for `userId` (`name` already validated); the token itself is returned this once and never stored. */
export async function createToken(userId: string, name: string, expiresInDays: number | null = null): Promise<CreatedToken> {
  const expiresIn = expiresInDays === null ? null : expiresInDays * 24 * 60 * 60;
  const created = await (await getAuth()).api.createApiKey({ body: { name, userId, expiresIn } });
  return {
    id: created.id,
    name: created.name ?? name,
    start: created.start ?? null,
    createdAt: new Date(created.createdAt).toISOString(),
    lastUsedAt: null,
    expiresAt: created.expiresAt ? new Date(created.expiresAt).toISOString() : null,
    token: created.key,
  };
}

export async function tokensOf(userId: string): Promise<TokenView[]> {
  return listTokens(await getDb(), userId);
}

export async function revoke(userId: string, tokenId: string): Promise<void> {
  await revokeToken(await getDb(), userId, tokenId);
}

/** Revokes every token of `userId` (offered with a password change); the number revoked. */
export async function revokeAll(userId: string): Promise<number> {
  return revokeAllTokens(await getDb(), userId);
}
