// Who may create an account, and what the first account gets.
import { APIError } from "better-auth/api";
import type { BetterAuthOptions } from "better-auth";
import type { Db } from "../db/client";
import { claimFirstAccount, hasAccounts, readSignupsOpen } from "../db/instance";
import { logger } from "../log/logger";
import type { AuthConfig } from "./config";

/** Whether a visitor may sign up now: always for the first account, unless closed by the environment. */
export async function signupsAllowed(db: Db, config: AuthConfig): Promise<boolean> {
  if (config.STRATA_SIGNUPS === "closed") return false;
  if (!(await hasAccounts(db))) return true;
  return readSignupsOpen(db);
}

export function accountHooks(db: Db, config: AuthConfig): BetterAuthOptions["databaseHooks"] {
  return {
    user: {
      create: {
        // A visitor signs up over HTTP (email or OAuth): `context.request` is theirs.
        // Accounts the server makes itself (the strata CLI) come without one and are
        // never refused.
        before: async (user, context) => {
          if (context?.request && !(await signupsAllowed(db, config))) {
            throw new APIError("FORBIDDEN", { message: "Sign-ups are closed here. Ask the admin for an account.", code: "SIGNUPS_CLOSED" });
          }
          return { data: { ...user, role: "user" } };
        },
        after: async (user) => {
          try {
            if (await claimFirstAccount(db, user.id)) logger.info({ userId: user.id }, "first account created: it is the admin");
          } catch (error) {
            logger.error({ err: error, userId: user.id }, "the first-account check failed");
          }
        },
      },
    },
  };
}
