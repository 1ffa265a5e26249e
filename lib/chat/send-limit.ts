// Messages and other model requests per user per minute: a runaway script or a stolen
// token cannot run up the model bill. Counted in PostgreSQL so that every process shares
// the limit.
import { getDb } from "../db/client";
import { takeFromBucket, type Bucket } from "../db/rate-limit";
import { AppError } from "../errors";
import { authConfig } from "../auth/config";

const WINDOW_MS = 60_000;

/** The user's send counter; null when the limit is off. */
export function sendBucket(userId: string): (Bucket & { refused: (retryAfterSeconds: number) => AppError }) | null {
  const max = authConfig().STRATA_MESSAGE_RATE_LIMIT;
  if (max === 0) return null;
  return {
    key: `send:${userId}`,
    max,
    windowMs: WINDOW_MS,
    refused: (retryAfterSeconds) =>
      new AppError("rate_limited", `You can send at most ${max} messages a minute (a compaction counts as one). Try again in ${retryAfterSeconds} s.`),
  };
}

/**
 * Counts a request that calls the model but stores no message at once (retry, edit,
 * regenerate, continue, a compaction or its preview), before the model is called; a new
 * message is counted by the statement storing it. A turn's own compactions are part of it.
 */
export async function countMessageSend(userId: string): Promise<void> {
  const bucket = sendBucket(userId);
  if (!bucket) return;
  const take = await takeFromBucket(await getDb(), bucket);
  if (!take.allowed) throw bucket.refused(take.retryAfterSeconds);
}
