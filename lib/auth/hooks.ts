// The library's before- and after-hooks: what Strata checks around every auth endpoint.
import { createAuthMiddleware } from "better-auth/api";
import type { Db } from "../db/client";
import type { AuthConfig } from "./config";
import { checkFieldLengths, checkNewPasswordOf } from "./input-policy";
import { SIGNIN_PATH, signedIn, takeAttempt } from "./signin-limit";
import { gateSignup } from "./signup-policy";

export function beforeHook(db: Db, config: AuthConfig) {
  return createAuthMiddleware(async (ctx) => {
    checkFieldLengths(ctx.body);
    checkNewPasswordOf(ctx.path, ctx.body);
    await gateSignup(db, config, ctx.path, ctx.request);
    if (ctx.path === SIGNIN_PATH) await takeAttempt(db, ctx.body);
    // A new password ends every other session, whatever the client asked for.
    if (ctx.path === "/change-password") return { context: { body: { ...(ctx.body as object), revokeOtherSessions: true } } };
  });
}

export function afterHook(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    if (ctx.path === SIGNIN_PATH && ctx.context.newSession) await signedIn(db, ctx.body);
  });
}
