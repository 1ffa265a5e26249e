// Personal API tokens: made and checked by better-auth's api-key plugin (it stores only
// a SHA-256 hash), listed and revoked through the db layer.
import { z } from "zod";
import { getDb } from "../db/client";
import { listTokens, revokeToken } from "../db/tokens";
import type { TokenView } from "../views";
import { AppError } from "../errors";
import { TOKEN_LENGTH, TOKEN_PREFIX, getAuth } from "./auth";

const tokenSchema = z.string().regex(new RegExp(`^${TOKEN_PREFIX}[A-Za-z]{${TOKEN_LENGTH}}$`));

export const tokenNameSchema = z.string().trim().min(1, { message: "Give the token a name." }).max(64);

/** The token of an `Authorization: Bearer <token>` header; anything else is refused as malformed. */
export function parseBearer(authorization: string): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  const token = tokenSchema.safeParse(match?.[1]);
  if (!token.success) {
    throw new AppError("unauthorized", `The Authorization header must be "Bearer ${TOKEN_PREFIX}…" with a personal API token.`);
  }
  return token.data;
}

/** The owner of a live token, or null for an unknown, revoked or expired one. */
export async function userIdForToken(token: string): Promise<string | null> {
  const result = await (await getAuth()).api.verifyApiKey({ body: { key: token } });
  return result.valid && result.key ? result.key.referenceId : null;
}

export type CreatedToken = TokenView & { token: string };

/** Creates a token for `userId` (`name` already validated); the token itself is returned this once and never stored. */
export async function createToken(userId: string, name: string): Promise<CreatedToken> {
  const created = await (await getAuth()).api.createApiKey({ body: { name, userId } });
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
