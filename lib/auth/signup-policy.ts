// Who may create an account, and what the first account gets.
import { APIError } from "better-auth/api";
import type { BetterAuthOptions } from "better-auth";
import type { Db } from "../db/client";
import { claimFirstAccount } from "../db/instance";
import { addMissingMcpServers } from "../db/mcp-servers";
import { isDemoMode } from "../llm/client";
import { demoServers } from "../mcp/demo-servers";
import { logger } from "../log/logger";
import type { AuthConfig } from "./config";
import { signupsAllowed } from "./signups";

// The endpoints on which the library may create an account for a visitor.
const SIGNUP_PATHS = ["/sign-up/", "/sign-in/social", "/callback/"];

// The decision for each such request, taken before the library opens its transaction:
// the embedded database runs one transaction at a time, so a query from inside the
// user-creation hook on another connection would wait for that very transaction.
const decisions = new WeakMap<Request, boolean>();

/** Run by the before-hook (lib/auth/hooks.ts) for every request to the library. */
export async function gateSignup(db: Db, config: AuthConfig, path: string, request: Request | undefined): Promise<void> {
  if (request && SIGNUP_PATHS.some((prefix) => path.startsWith(prefix))) {
    decisions.set(request, await signupsAllowed(db, config));
  }
}

export function accountHooks(db: Db): BetterAuthOptions["databaseHooks"] {
  return {
    user: {
      create: {
        // A visitor signs up over HTTP (email or OAuth): `context.request` is theirs, and
        // anything but an explicit yes from the gate refuses. Accounts the server makes
        // itself (the strata CLI) come without a request and are never refused.
        before: async (user, context) => {
          if (context?.request && decisions.get(context.request) !== true) {
            throw new APIError("FORBIDDEN", { message: "Sign-ups are closed here. Ask the admin for an account.", code: "SIGNUPS_CLOSED" });
          }
          return { data: { ...user, role: "user" } };
        },
        after: async (user) => {
          try {
            if (await claimFirstAccount(db, user.id)) {
              logger.info({ userId: user.id }, "first account created: it is the admin");
              if (isDemoMode()) {
                const added = await addMissingMcpServers(db, demoServers());
                if (added.length > 0) logger.info({ servers: added }, "demo tool servers configured");
              }
            }
          } catch (error) {
            logger.error({ err: error, userId: user.id }, "the first-account check failed");
          }
        },
      },
    },
  };
}
