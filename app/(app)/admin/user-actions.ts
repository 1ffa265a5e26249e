"use server";
// The admin's user management, from the browser's session only (as tokens and sessions
// are): each operation refuses anyone who is not an admin.
import type { z } from "zod";
import * as ops from "@/lib/chat/operations";
import { requireSessionActionUser } from "@/lib/auth/current-user";
import { asResult } from "@/lib/errors";
import type { userDisabledInput, userListInput, userRoleInput } from "@/lib/chat/admin-user-ops";
import type { recordIdSchema } from "@/lib/chat/inputs";

export async function listUsersAction(input: z.input<typeof userListInput>) {
  return asResult(async () => ops.listUsers(await requireSessionActionUser(), input));
}

export async function setUserDisabledAction(input: z.input<typeof userDisabledInput>) {
  return asResult(async () => ops.setUserDisabled(await requireSessionActionUser(), input));
}

export async function setUserRoleAction(input: z.input<typeof userRoleInput>) {
  return asResult(async () => ops.setUserRole(await requireSessionActionUser(), input));
}

export async function createResetLinkAction(userId: z.input<typeof recordIdSchema>) {
  return asResult(async () => ops.createResetLink(await requireSessionActionUser(), userId));
}
