// Messages per user per minute: a runaway script or a stolen token cannot run up the
// model bill. Counted in PostgreSQL so that every process shares the limit.
import { getDb } from "../db/client";
import { takeFromBucket } from "../db/rate-limit";
import { AppError } from "../errors";
import { authConfig } from "../auth/config";

const WINDOW_MS = 60_000;

export async function countMessageSend(userId: string): Promise<void> {
  const max = authConfig().STRATA_MESSAGE_RATE_LIMIT;
  if (max === 0) return;
  const take = await takeFromBucket(await getDb(), `send:${userId}`, max, WINDOW_MS);
  if (!take.allowed) {
    throw new AppError("rate_limited", `You can send at most ${max} messages a minute. Try again in ${take.retryAfterSeconds} s.`);
  }
}
