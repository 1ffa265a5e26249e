// Worker threads for work that would otherwise hold the event loop (every other user's
// request) for seconds: long token counts, reading a PDF. Each pool's worker is a plain
// .mjs file loaded by Node from the source tree (callers name it from process.cwd(): the
// project root for `next start`, `next dev`, vitest and tsx alike, in literal segments,
// which the build's file tracing can follow), outside the Next bundle; piscina is in
// serverExternalPackages so that its own worker bootstrap resolves too.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import { logger } from "../log/logger";

type PoolOptions = {
  /** Threads kept warm; the others end after a minute idle. */
  minThreads: number;
  /** Limits of each thread (a file that needs more memory ends its thread, not the server). */
  resourceLimits?: { maxOldGenerationSizeMb: number };
};

/** One pool per process, started by its first task; null when its worker file is missing. */
export type LazyPool<Task, Result> = {
  get(): Piscina<Task, Result> | null;
  /** The pool if it has started (for its statistics). */
  started(): Piscina<Task, Result> | null;
  /** Ends its threads (tests, shutdown); the next task starts a new pool. */
  close(): Promise<void>;
};

export function lazyPool<Task, Result>(name: string, filename: string, options: PoolOptions): LazyPool<Task, Result> {
  // On globalThis: Next dev re-evaluates modules on hot reload; one pool per process.
  const holder = globalThis as unknown as Record<symbol, { pool: Piscina<Task, Result> | null | undefined } | undefined>;
  const state = (holder[Symbol.for(`strata.workers.${name}`)] ??= { pool: undefined });
  return {
    get: () => {
      if (state.pool === undefined) state.pool = workerPool<Task, Result>(filename, options);
      return state.pool;
    },
    started: () => state.pool ?? null,
    close: async () => {
      const pool = state.pool;
      state.pool = undefined;
      await pool?.destroy();
    },
  };
}

/**
 * A pool running the default export of `filename`, or null when the file is not there
 * (an unusual deployment: callers then do the work on this thread).
 */
function workerPool<Task, Result>(filename: string, options: PoolOptions): Piscina<Task, Result> | null {
  if (!existsSync(filename)) {
    logger.warn({ file: filename }, "worker file not found: its work runs on the main thread");
    return null;
  }
  // One core stays with the event loop. Worker threads do not keep the process alive.
  const maxThreads = Math.max(1, Math.min(4, availableParallelism() - 1));
  return new Piscina<Task, Result>({ filename, maxThreads, idleTimeout: 60_000, ...options });
}
