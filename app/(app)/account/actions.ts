"use server";
// The account page's own actions: from the browser's session only, never with an API
// token (a leaked token must not change the email or delete the account).
import type { z } from "zod";
import * as ops from "@/lib/chat/operations";
import { requireSessionActionUser } from "@/lib/auth/current-user";
import { asResult } from "@/lib/errors";
import type { deleteAccountInput, profileInput } from "@/lib/chat/account-ops";

export async function updateProfileAction(input: z.input<typeof profileInput>) {
  return asResult(async () => {
    const user = await ops.updateProfile(await requireSessionActionUser(), input);
    return { name: user.name, email: user.email };
  });
}

export async function deleteAccountAction(input: z.input<typeof deleteAccountInput>) {
  return asResult(async () => ops.deleteAccount(await requireSessionActionUser(), input));
}
