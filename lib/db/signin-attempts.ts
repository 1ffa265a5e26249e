// Sign-in attempts per account, in the shared RateBucket table (so every instance sees
// the same count, and a restart forgets nothing): "count" is the number of attempts
// since the last successful sign-in, "windowStart" the time of the latest. Counting
// happens before the password is checked, in one statement, so parallel guesses cannot
// slip through between a check and a write.
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";

export type SignInBackoff = {
  /** Attempts that may follow one another without a wait. */
  freeAttempts: number;
  /** The wait after the first attempt past the free ones; it doubles with each further attempt. */
  firstWaitSeconds: number;
  maxWaitSeconds: number;
  /** After this long without an attempt, the count starts again. */
  forgetAfterSeconds: number;
};

export type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const key = (email: string) => `signin:${email}`;

/** When the row's wait ends: its latest attempt plus firstWait · 2^(count - freeAttempts), at most maxWait (none below freeAttempts). */
function waitEnds({ freeAttempts, firstWaitSeconds, maxWaitSeconds }: SignInBackoff): Prisma.Sql {
  return Prisma.sql`("RateBucket"."windowStart" + make_interval(secs => CASE WHEN "RateBucket"."count" < ${freeAttempts} THEN 0
    ELSE LEAST(${maxWaitSeconds}::float8, ${firstWaitSeconds}::float8 * power(2, LEAST("RateBucket"."count" - ${freeAttempts}, 30))) END))`;
}

/**
 * Counts an attempt for `email` unless it must wait: then nothing is counted and the
 * answer says how long. The condition is checked on the row as locked by the upsert,
 * so parallel attempts are counted one after another and none gets past the wait.
 */
export async function takeSignInAttempt(db: Db, email: string, backoff: SignInBackoff): Promise<AttemptDecision> {
  const counted = await db.$executeRaw`
    INSERT INTO "RateBucket" ("key", "windowStart", "count") VALUES (${key(email)}, now(), 1)
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateBucket"."windowStart" <= now() - make_interval(secs => ${backoff.forgetAfterSeconds}) THEN 1 ELSE "RateBucket"."count" + 1 END,
      "windowStart" = now()
    WHERE ${waitEnds(backoff)} <= now()`;
  if (counted > 0) return { allowed: true };
  const rows = await db.$queryRaw<{ retryAfterMs: number }[]>`
    SELECT (EXTRACT(EPOCH FROM (${waitEnds(backoff)} - now())) * 1000)::float8 AS "retryAfterMs" FROM "RateBucket" WHERE "key" = ${key(email)}`;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((rows[0]?.retryAfterMs ?? 1000) / 1000)) };
}

/** A successful sign-in: the count starts again. */
export async function clearSignInAttempts(db: Db, email: string): Promise<void> {
  await db.$executeRaw`DELETE FROM "RateBucket" WHERE "key" = ${key(email)}`;
}

/** Forgets the counts of emails nobody has tried for `forgetAfterSeconds` (they would start again anyway). */
export async function pruneSignInAttempts(db: Db, forgetAfterSeconds: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "RateBucket" WHERE "key" LIKE 'signin:%' AND "windowStart" <= now() - make_interval(secs => ${forgetAfterSeconds})`;
}
