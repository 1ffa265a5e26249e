// What changes an account and needs the auth library's own pieces: its password check
// (the hash it stored) and its reset tokens (which its /reset-password endpoint spends).
import { randomBytes } from "node:crypto";
import { getDb } from "../db/client";
import { credentialPasswordHash, deleteResetLinks, RESET_IDENTIFIER_PREFIX } from "../db/users";
import { getAuth } from "./auth";

/** How long an admin's reset link works. */
export const RESET_LINK_LIFETIME_MS = 60 * 60 * 1000;

/** Whether `password` is the user's; false for an account without one (OAuth only). */
export async function isUsersPassword(userId: string, password: string): Promise<boolean> {
  const hash = await credentialPasswordHash(await getDb(), userId);
  if (!hash) return false;
  return (await (await getAuth()).$context).password.verify({ hash, password });
}

/** Whether the user has a password at all (an OAuth-only account confirms with its email instead). */
export async function hasPassword(userId: string): Promise<boolean> {
  return (await credentialPasswordHash(await getDb(), userId)) !== null;
}

/**
 * A new one-time reset token for the user, replacing any earlier one. Stored the way
 * the library's own "forgot password" stores it, so its /reset-password endpoint checks
 * the expiry, spends the token in the transaction that sets the password and ends every
 * session of the account (revokeSessionsOnPasswordReset).
 */
export async function issueResetToken(userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + RESET_LINK_LIFETIME_MS);
  await deleteResetLinks(await getDb(), userId);
  const context = await (await getAuth()).$context;
  await context.internalAdapter.createVerificationValue({ identifier: `${RESET_IDENTIFIER_PREFIX}${token}`, value: userId, expiresAt });
  return { token, expiresAt };
}
