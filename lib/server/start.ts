// What a Next server process starts besides serving requests (instrumentation.ts
// calls startServer() once): the stop listener, the background queue, and the
// SIGTERM drain. Not used by tests or scripts, which run background work in-process.
import { config } from "../config";
import { closeCluster, listenForStops } from "../db/cluster";
import { shutDownDb } from "../db/client";
import { logger } from "../log/logger";
import { warmTokenCounting } from "../llm/token-pool";
import { runBackgroundCompaction } from "../chat/compressor";
import { runningTurnCount, stopAllTurns, stopTurns } from "../chat/running-turns";
import { answerRoutedApproval } from "../chat/approval-ops";
import { startQueue, stopQueue } from "../queue";
import { closeMcpPool } from "../mcp/pool";
import { answerMetricsReports } from "./process-metrics";

const holder = globalThis as unknown as { strataServerStarted?: boolean };

export async function startServer(): Promise<void> {
  if (holder.strataServerStarted) return;
  holder.strataServerStarted = true;
  const settings = config();
  installShutdown(settings.STRATA_SHUTDOWN_GRACE_MS);
  // From here a SIGTERM drains this process's turns; until here Next's own handler (or none) ends it.
  logger.info({ pid: process.pid }, "server process started");
  void warmTokenCounting().catch((error: unknown) => logger.error({ err: error }, "token counting could not be made ready"));
  answerMetricsReports();
  if (!settings.DATABASE_URL) {
    logger.info("embedded database: background work runs in-process (no queue)");
    return;
  }
  listenForStops(
    (conversationId) => {
      const stopped = stopTurns(conversationId);
      if (stopped > 0) logger.info({ conversationId, stopped }, "stopped by another instance");
    },
    (payload) => void answerRoutedApproval(payload),
  );
  if (settings.STRATA_QUEUE === "0") return;
  // A queue that cannot start leaves the work in-process; /api/health reports why.
  await startQueue(settings.DATABASE_URL, ({ userId, conversationId }) => runBackgroundCompaction(userId, conversationId)).catch(
    (error: unknown) => logger.error({ err: String(error) }, "background queue did not start; background work runs in-process"),
  );
}

/**
 * SIGTERM: stop every running turn so each saves its partial reply, let running
 * jobs finish, close the database, then hand over to Next's own handler (which
 * closes the HTTP server and exits). Next registered its handler before
 * instrumentation runs; it is taken off and called at the end.
 */
function installShutdown(graceMs: number): void {
  const previous = process.listeners("SIGTERM");
  process.removeAllListeners("SIGTERM");
  let draining = false;
  process.on("SIGTERM", (signal) => {
    if (draining) return;
    draining = true;
    void (async () => {
      const deadline = Date.now() + graceMs;
      logger.info({ runningTurns: runningTurnCount() }, "SIGTERM: stopping running turns");
      const left = await stopAllTurns(graceMs);
      if (left > 0) logger.warn({ left }, "SIGTERM: turns still running after the grace period");
      await stopQueue(Math.max(1000, deadline - Date.now()));
      await Promise.allSettled([closeCluster(), shutDownDb(), closeMcpPool()]);
      logger.info("SIGTERM: drained");
      if (previous.length === 0) process.exit(143);
      // Next's handler exits once its HTTP server has closed, which waits for every open
      // connection: a browser tab polling on a kept-alive connection could hold it open
      // indefinitely. What had to be saved is saved, so the grace period bounds the wait.
      setTimeout(() => {
        logger.warn("SIGTERM: connections still open at the end of the grace period; exiting");
        process.exit(143);
      }, Math.max(1000, deadline - Date.now())).unref();
      for (const listener of previous) (listener as (signal: NodeJS.Signals) => void)(signal);
    })();
  });
}
