// A user's account: personal API tokens, signed-in sessions, name and email, deletion.
import { z } from "zod";
import { getDb } from "../db/client";
import { deleteUserAndData, updateProfile as updateUserProfile, type UserRecord } from "../db/users";
import { AppError } from "../errors";
import { MAX_CHECKED_PASSWORD_LENGTH, MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from "../auth/field-limits";
import type { SessionView, TokenView } from "../views";
import type { CreatedToken } from "../auth/tokens";
import { newTokenSchema } from "../auth/token-input";
import { recordIdSchema } from "./inputs";
import { type Actor, parse } from "./actor";

// Loaded when used: processes that only chat (the crash test's children, benchmarks)
// need not load the auth library.
const tokenModule = () => import("../auth/tokens");

export async function listTokens(actor: Actor): Promise<TokenView[]> {
  return (await tokenModule()).tokensOf(actor.id);
}

/** A new personal API token; its value is in the result this once. */
export async function createToken(actor: Actor, input: unknown): Promise<CreatedToken> {
  const tokens = await tokenModule();
  const { name, expiresInDays } = parse(newTokenSchema, input);
  return tokens.createToken(actor.id, name, expiresInDays);
}

export async function revokeToken(actor: Actor, tokenId: unknown): Promise<void> {
  await (await tokenModule()).revoke(actor.id, parse(recordIdSchema, tokenId));
}

export async function revokeAllTokens(actor: Actor): Promise<number> {
  return (await tokenModule()).revokeAll(actor.id);
}

const sessionModule = () => import("../auth/sessions");

/** The actor's sessions; `requestHeaders` tell which one is asking. */
export async function listSessions(actor: Actor, requestHeaders: Headers): Promise<SessionView[]> {
  return (await sessionModule()).sessionsOf(actor.id, requestHeaders);
}

export async function revokeSession(actor: Actor, sessionId: unknown): Promise<void> {
  await (await sessionModule()).endSession(actor.id, parse(recordIdSchema, sessionId));
}

// ---- The account itself: name, email, deletion.

const accountModule = () => import("../auth/account-changes");

export const profileInput = z.object({
  name: z.string().trim().min(1, "Enter a name.").max(MAX_NAME_LENGTH, `At most ${MAX_NAME_LENGTH} characters.`),
  email: z.string().trim().max(MAX_EMAIL_LENGTH, `At most ${MAX_EMAIL_LENGTH} characters.`).pipe(z.email("That is not an email address.")),
  currentPassword: z.string().max(MAX_CHECKED_PASSWORD_LENGTH).optional(),
});

export const deleteAccountInput = z.object({ confirmation: z.string().min(1, "Type it to confirm.").max(MAX_CHECKED_PASSWORD_LENGTH) });

/** Whether the account has a password (its email and deletion are confirmed with it). */
export async function accountHasPassword(actor: Actor): Promise<boolean> {
  return (await accountModule()).hasPassword(actor.id);
}

/** Sets the actor's name and email; a new email needs the current password. */
export async function updateProfile(actor: Actor & { email: string }, input: unknown): Promise<UserRecord> {
  const { name, email, currentPassword } = parse(profileInput, input);
  const account = await accountModule();
  if (email.toLowerCase() !== actor.email.toLowerCase()) {
    if (!(await account.hasPassword(actor.id))) {
      throw new AppError("invalid_input", "This account signs in without a password, so its email address cannot be changed here.");
    }
    if (!currentPassword || !(await account.isUsersPassword(actor.id, currentPassword))) {
      throw new AppError("invalid_input", "The current password is wrong.", { currentPassword: ["The current password is wrong."] });
    }
  }
  return updateUserProfile(await getDb(), actor.id, { name, email });
}

/**
 * Deletes the actor's account and all its data. Confirmed with the password, or (an
 * account without one) by typing the email address.
 */
export async function deleteAccount(actor: Actor & { email: string }, input: unknown): Promise<void> {
  const { confirmation } = parse(deleteAccountInput, input);
  const account = await accountModule();
  const confirmed = (await account.hasPassword(actor.id))
    ? await account.isUsersPassword(actor.id, confirmation)
    : confirmation.trim().toLowerCase() === actor.email.toLowerCase();
  if (!confirmed) throw new AppError("invalid_input", "That does not match: nothing was deleted.");
  await deleteUserAndData(await getDb(), actor.id);
}
