// The admin's management of accounts: the paged user list with each user's usage,
// disable/enable, role change and password reset links. Everyone else is refused.
import { z } from "zod";
import { getDb } from "../db/client";
import { listUsersPage, type UserListPage } from "../db/user-list";
import { findUserById, setUserDisabled, setUserRole } from "../db/users";
import { notFound } from "../errors";
import { MAX_EMAIL_LENGTH } from "../auth/field-limits";
import { recordIdSchema } from "./inputs";
import { type Actor, assertAdmin, parse } from "./actor";

export const USER_PAGE_SIZE = 25;

export const userListInput = z.object({
  page: z.number().int().min(1).max(1_000_000).default(1),
  query: z.string().trim().max(MAX_EMAIL_LENGTH).default(""),
});
export const userDisabledInput = z.object({ userId: recordIdSchema, disabled: z.boolean() });
export const userRoleInput = z.object({ userId: recordIdSchema, role: z.enum(["admin", "user"]) });

export type { UserListPage, UserListRow } from "../db/user-list";
export type ResetLink = { path: string; expiresAt: string };

export async function listUsers(actor: Actor, input: unknown = {}): Promise<UserListPage> {
  assertAdmin(actor);
  const { page, query } = parse(userListInput, input);
  return listUsersPage(await getDb(), { page, pageSize: USER_PAGE_SIZE, query });
}

/** Disables (their sessions end at once, their tokens are refused) or enables another user. */
export async function setDisabled(actor: Actor, input: unknown): Promise<void> {
  assertAdmin(actor);
  const { userId, disabled } = parse(userDisabledInput, input);
  await setUserDisabled(await getDb(), actor.id, userId, disabled);
}

export async function setRole(actor: Actor, input: unknown): Promise<void> {
  assertAdmin(actor);
  const { userId, role } = parse(userRoleInput, input);
  await setUserRole(await getDb(), userId, role);
}

/**
 * A one-time link, valid for an hour, with which the user sets a new password (every
 * session of theirs ends then). There is no mail: the admin hands it over.
 */
export async function createResetLink(actor: Actor, userId: unknown): Promise<ResetLink> {
  assertAdmin(actor);
  const id = parse(recordIdSchema, userId);
  if (!(await findUserById(await getDb(), id))) throw notFound("user", id);
  const { issueResetToken } = await import("../auth/account-changes");
  const { token, expiresAt } = await issueResetToken(id);
  return { path: `/reset-password?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString() };
}
