// The one place that answers "who is asking": a personal API token
// (Authorization: Bearer …) or the browser's session cookie. Route handlers, server
// actions and pages all resolve their user here and pass it on explicitly.
import { cache } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getSessionCookie } from "better-auth/cookies";
import { toUser, type UserRecord } from "../db/users";
import { AppError } from "../errors";
import { crossSiteRefusal } from "../http/origin";
import { getAuth } from "./auth";
import { parseBearer, userForToken } from "./tokens";
import { PAGE_PATH_HEADER, signInPathFor } from "./next-path";

export type CurrentUser = UserRecord;

const signedOut = () => new AppError("unauthorized", "Sign in first, or send a personal API token as Authorization: Bearer <token>.");

/** The user behind these request headers, or null when there is neither token nor live session. */
export async function userFromHeaders(requestHeaders: Headers): Promise<CurrentUser | null> {
  const authorization = requestHeaders.get("authorization");
  // A token that was sent but does not work is an error, never a fall-back to the cookie.
  if (authorization !== null) {
    const user = await userForToken(parseBearer(authorization));
    if (!user) throw new AppError("unauthorized", "The API token is not valid: it is unknown, revoked or expired.");
    return user;
  }
  const session = await (await getAuth()).api.getSession({ headers: requestHeaders });
  if (!session) {
    if (getSessionCookie(requestHeaders)) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
    return null;
  }
  // Disabling deletes the sessions too; this covers a session made in the same instant.
  // The library read the user's row after the session's, in this request: it is as fresh
  // as a read of our own would be, and a page or an action spends one statement less.
  if (session.user.banned === true) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
  return toUser(session.user);
}

/**
 * For route handlers. A request that changes something must come from Strata's own
 * origin, scheme included (cookies are SameSite=Lax, which lets a same-site page or an
 * http:// one send them): see lib/http/origin.ts.
 */
export async function requireRequestUser(request: Request): Promise<CurrentUser> {
  const user = await userFromHeaders(request.headers);
  if (!user) throw signedOut();
  const refusal = crossSiteRefusal(request);
  if (refusal) throw new AppError("forbidden", refusal);
  return user;
}

/** The signed-in user of the current page render or server action (once per request). */
export const currentUser = cache(async (): Promise<CurrentUser | null> => {
  try {
    return await userFromHeaders(await headers());
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") return null;
    throw error;
  }
});

/** For server actions: the user, or an "unauthorized" error saying why. */
export async function requireActionUser(): Promise<CurrentUser> {
  const user = await userFromHeaders(await headers());
  if (!user) throw signedOut();
  return user;
}

/**
 * For what only the person at the browser may do (API tokens, sessions): the user of the
 * session cookie. A request with an API token is refused, so a leaked token can neither
 * mint new tokens nor revoke the owner's others, and revoking it locks it out.
 */
export async function requireSessionActionUser(): Promise<CurrentUser> {
  const requestHeaders = await headers();
  if (requestHeaders.has("authorization")) {
    throw new AppError("forbidden", "API tokens and sessions can only be managed from a signed-in browser, not with an API token.");
  }
  const user = await userFromHeaders(requestHeaders);
  if (!user) throw signedOut();
  return user;
}

/** For pages: the user, or off to the sign-in page. */
export async function requirePageUser(): Promise<CurrentUser> {
  const user = await currentUser();
  if (!user) redirect(signInPathFor((await headers()).get(PAGE_PATH_HEADER)));
  return user;
}
