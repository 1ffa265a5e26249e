// Background work on pg-boss, in the application's own PostgreSQL (schema "pgboss",
// created by pg-boss itself on first start). One queue: pre-emptive compaction,
// whose strategies include the turn digests. Each job names one conversation and
// carries it as its singleton key under the "stately" policy, so a conversation has
// at most one job waiting and one running, across every instance.
//
// A job runs with a heartbeat: when the instance running it dies, pg-boss's
// supervisor fails the job after HEARTBEAT_SECONDS and retries it (with exponential
// backoff), and whichever instance fetches it next completes it. Errors thrown by the
// handler are retried the same way. Only Next servers start the queue (instrumentation.ts);
// other processes (tests, scripts) and the embedded database run the same work
// in-process (lib/chat/compressor.ts), since pg-boss needs a database other processes share.
import { PgBoss } from "pg-boss";
import { z } from "zod";
import { logger } from "../log/logger";
import type { BackgroundWorkView } from "../views";
import { metrics } from "../server/metrics";

export const COMPACTION_QUEUE = "strata-background-compaction";
const HEARTBEAT_SECONDS = 10;

const jobData = z.object({ userId: z.string().min(1), conversationId: z.string().min(1) });
export type CompactionJob = z.infer<typeof jobData>;

type QueueState = {
  boss?: PgBoss | undefined;
  status: "off" | "starting" | "running" | "stopping" | "failed";
  error?: string;
};
const holder = globalThis as unknown as { strataQueue?: QueueState };
const state = (holder.strataQueue ??= { status: "off" });

export function queueStatus(): { status: QueueState["status"]; error?: string } {
  return { status: state.status, ...(state.error ? { error: state.error } : {}) };
}

/** True when this process sends background work to the queue rather than running it itself. */
export function queueRunning(): boolean {
  return state.status === "running";
}

/** Starts pg-boss on `connectionString` and works the compaction queue with `handler`. */
export async function startQueue(connectionString: string, handler: (job: CompactionJob) => Promise<void>): Promise<void> {
  if (state.boss) return;
  state.status = "starting";
  const boss = new PgBoss({
    connectionString,
    schema: "pgboss",
    application_name: "strata-queue",
    max: 4,
    // How soon a job of a dead instance is noticed (its heartbeat stops) and retried.
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
  });
  state.boss = boss;
  boss.on("error", (error: Error) => logger.warn({ err: error.message }, "queue error"));
  try {
    await boss.start();
    await boss.createQueue(COMPACTION_QUEUE, {
      policy: "stately",
      retryLimit: 4,
      retryDelay: 2,
      retryBackoff: true,
      retryDelayMax: 60,
      heartbeatSeconds: HEARTBEAT_SECONDS,
      expireInSeconds: 15 * 60,
      deleteAfterSeconds: 24 * 60 * 60,
    });
    await boss.work<CompactionJob>(COMPACTION_QUEUE, { localConcurrency: 2, pollingIntervalSeconds: 1 }, async ([job]) => {
      if (!job) return;
      const data = jobData.parse(job.data);
      const fields = { conversationId: data.conversationId, jobId: job.id };
      logger.info(fields, "background compaction job started");
      try {
        await handler(data);
        metrics().jobs.inc({ result: "completed" });
        logger.info(fields, "background compaction job done");
      } catch (error) {
        metrics().jobs.inc({ result: "failed" });
        logger.warn({ ...fields, err: String(error) }, "background compaction job failed; pg-boss retries it");
        throw error;
      }
    });
    state.status = "running";
    logger.info({ queue: COMPACTION_QUEUE }, "background queue (pg-boss) running");
  } catch (error) {
    state.status = "failed";
    state.error = error instanceof Error ? error.message : String(error);
    state.boss = undefined;
    await boss.stop({ graceful: false }).catch(() => undefined);
    throw error;
  }
}

/** Queues a background compaction of the conversation (nothing if one is already waiting). */
export async function enqueueCompaction(job: CompactionJob): Promise<void> {
  const boss = state.boss;
  if (!boss) throw new Error("the queue is not running in this process");
  await boss.send(COMPACTION_QUEUE, job, { singletonKey: job.conversationId });
}

/**
 * The conversation's compaction jobs not finished yet, read through pg-boss (findJobs by
 * singleton key). Empty when this process has no queue. The caller checks ownership.
 */
export async function pendingCompactionJobs(conversationId: string): Promise<BackgroundWorkView[]> {
  const boss = state.boss;
  if (!boss || state.status !== "running") return [];
  const jobs = await boss.findJobs<CompactionJob>(COMPACTION_QUEUE, { key: conversationId, limit: 10 });
  return jobs.flatMap((job): BackgroundWorkView[] => {
    const common = { where: "queue" as const, attempt: job.retryCount + 1, maxAttempts: job.retryLimit + 1 };
    switch (job.state) {
      case "created":
        return [{ ...common, state: "queued", since: job.createdOn.toISOString(), nextRetryAt: null }];
      case "retry":
        return [{ ...common, state: "retrying", since: job.createdOn.toISOString(), nextRetryAt: job.startAfter.toISOString() }];
      case "active":
        // retryCount goes up when a retry is claimed, so a running job's attempt is retryCount + 1 too.
        return [{ ...common, state: "running", since: job.startedOn.toISOString(), nextRetryAt: null }];
      default:
        return [];
    }
  });
}

/** Lets running jobs finish (up to `timeoutMs`), then stops the queue. */
export async function stopQueue(timeoutMs: number): Promise<void> {
  const boss = state.boss;
  if (!boss) return;
  state.status = "stopping";
  await boss.stop({ graceful: true, timeout: timeoutMs }).catch((error: unknown) => logger.warn({ err: String(error) }, "queue stop failed"));
  state.boss = undefined;
  state.status = "off";
}
