// Fixed-window counters in PostgreSQL, so that every app process shares one limit and
// a restart does not reset it. One statement per event: the upsert is atomic.
import type { Db } from "./client.ts";

export type Take = { allowed: boolean; retryAfterSeconds: number };

/** Counts one event against `key`; refused once `max` events were counted in the current window. */
export async function takeFromBucket(db: Db, key: string, max: number, windowMs: number): Promise<Take> {
  const rows = await db.$queryRaw<{ count: number; retryAfterMs: number }[]>`
    INSERT INTO "RateBucket" ("key", "windowStart", "count") VALUES (${key}, now(), 1)
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateBucket"."windowStart" <= now() - make_interval(secs => ${windowMs / 1000})
                     THEN 1 ELSE "RateBucket"."count" + 1 END,
      "windowStart" = CASE WHEN "RateBucket"."windowStart" <= now() - make_interval(secs => ${windowMs / 1000})
                           THEN now() ELSE "RateBucket"."windowStart" END
    RETURNING "count",
      (EXTRACT(EPOCH FROM ("windowStart" + make_interval(secs => ${windowMs / 1000}) - now())) * 1000)::float8 AS "retryAfterMs"`;
  const row = rows[0]!;
  return { allowed: row.count <= max, retryAfterSeconds: Math.max(1, Math.ceil(row.retryAfterMs / 1000)) };
}
