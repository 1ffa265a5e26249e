// Personal API tokens as the api-key plugin stores them (hashed). Creating and checking a
// token goes through the library; listing and revoking are plain owned-row queries.
import type { Db } from "./client.ts";
import { notFound } from "../errors.ts";
import type { TokenView } from "../views";

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
