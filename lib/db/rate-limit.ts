// Fixed-window counters in PostgreSQL, so that every app process shares one limit and
// a restart does not reset it. One statement per event: the upsert is atomic.
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";

export type Take = { allowed: boolean; retryAfterSeconds: number };

/** A counter to count an event against: refused once `max` events were counted in the current window. */
export type Bucket = { key: string; max: number; windowMs: number };

type Counted = { count: number; retryAfterMs: number };

/**
 * Counts one event against the bucket, returning "count" and "retryAfterMs": a statement
 * of its own, or the body of a CTE of another statement that must count in the same step.
 */
export function countEventSql({ key, windowMs }: Bucket): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO "RateBucket" ("key", "windowStart", "count") VALUES (${key}, now(), 1)
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateBucket"."windowStart" <= now() - make_interval(secs => ${windowMs / 1000})
                     THEN 1 ELSE "RateBucket"."count" + 1 END,
      "windowStart" = CASE WHEN "RateBucket"."windowStart" <= now() - make_interval(secs => ${windowMs / 1000})
                           THEN now() ELSE "RateBucket"."windowStart" END
    RETURNING "count",
      (EXTRACT(EPOCH FROM ("windowStart" + make_interval(secs => ${windowMs / 1000}) - now())) * 1000)::float8 AS "retryAfterMs"`;
}

function takeOf(counted: Counted, max: number): Take {
  return { allowed: counted.count <= max, retryAfterSeconds: Math.max(1, Math.ceil(counted.retryAfterMs / 1000)) };
}

/** Counts one event against the bucket. */
export async function takeFromBucket(db: Db, bucket: Bucket): Promise<Take> {
  const rows = await db.$queryRaw<Counted[]>`${countEventSql(bucket)}`;
  return takeOf(rows[0]!, bucket.max);
}

/** Where the bucket stands, without counting: after a statement that counted in a CTE stored nothing, whether the count was why. */
export async function bucketState(db: Db, bucket: Bucket): Promise<Take> {
  const rows = await db.$queryRaw<Counted[]>`
    SELECT "count", (EXTRACT(EPOCH FROM ("windowStart" + make_interval(secs => ${bucket.windowMs / 1000}) - now())) * 1000)::float8 AS "retryAfterMs"
    FROM "RateBucket" WHERE "key" = ${bucket.key}`;
  return rows[0] ? takeOf(rows[0], bucket.max) : { allowed: true, retryAfterSeconds: 1 };
}
