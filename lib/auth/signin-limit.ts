// The per-account sign-in limit: five attempts in a row are free, then each further
// one waits 30 s, 1, 2, 4, 8 min, at most 15 min; a successful sign-in starts the count
// again. Kept per email in PostgreSQL (lib/db/signin-attempts.ts), whatever address the
// attempts come from, and for unknown emails too, so the answer does not tell them apart.
import { APIError } from "better-auth/api";
import type { Db } from "../db/client";
import { clearSignInAttempts, pruneSignInAttempts, takeSignInAttempt, type SignInBackoff } from "../db/signin-attempts";
import { logger } from "../log/logger";

export const SIGNIN_BACKOFF: SignInBackoff = { freeAttempts: 5, firstWaitSeconds: 30, maxWaitSeconds: 15 * 60, forgetAfterSeconds: 24 * 60 * 60 };

export const SIGNIN_PATH = "/sign-in/email";

const PRUNE_SHARE = 0.01;

function accountKey(body: unknown): string | null {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" && email.trim() ? email.trim().toLowerCase() : null;
}

function waitWords(seconds: number): string {
  return seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

/** Before the password is checked: counts the attempt, or refuses with 429 and Retry-After. */
export async function takeAttempt(db: Db, body: unknown): Promise<void> {
  const email = accountKey(body);
  if (!email) return;
  const decision = await takeSignInAttempt(db, email, SIGNIN_BACKOFF);
  // Every email tried leaves a row; now and then (about one attempt in a hundred, after
  // the answer) the rows of emails nobody has tried for a day go.
  if (Math.random() < PRUNE_SHARE) {
    void pruneSignInAttempts(db, SIGNIN_BACKOFF.forgetAfterSeconds).catch((error: unknown) =>
      logger.warn({ err: String(error) }, "could not prune old sign-in counts"),
    );
  }
  if (decision.allowed) return;
  throw new APIError(
    "TOO_MANY_REQUESTS",
    {
      code: "TOO_MANY_FAILED_SIGN_INS",
      message: `Too many sign-in attempts for this account. Try again in ${waitWords(decision.retryAfterSeconds)}; each further wrong password doubles the wait, up to 15 minutes.`,
    },
    { "Retry-After": String(decision.retryAfterSeconds) },
  );
}

/** After a successful sign-in the count starts again. */
export async function signedIn(db: Db, body: unknown): Promise<void> {
  const email = accountKey(body);
  if (email) await clearSignInAttempts(db, email);
}
