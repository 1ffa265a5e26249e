// Large token counts on worker threads, so that one long message does not hold up
// every other request while it is counted.
//
// Counting is linear (./token-count.mjs) but not free: 100,000 characters of the worst
// kind take about 60 ms, ordinary prose about 20 ms. Texts from ASYNC_MIN_CHARS up go
// to a worker pool (lib/workers/pool.ts); shorter ones are counted at once (a worker
// hop, ~1 ms with the copy of the text, is not worth it below that). Without the
// worker file (an unusual deployment) counts fall back to this thread, still linear.
import path from "node:path";
import type { ChatMessage } from "../compression/types";
import { logger } from "../log/logger";
import { lazyPool } from "../workers/pool";
import { countTextTokens, encodingForModel, messageTexts, rememberTextTokens } from "./tokens";
import { tiktokenEncoder, warmRanks, type EncodingName } from "./token-count.mjs";

/** Texts at least this long are counted on a worker thread (below it: under ~6 ms on this thread, worst kind). */
export const ASYNC_MIN_CHARS = 10_000;

type CountTask = { text: string; encoding: EncodingName };
// One thread is kept warm, its encoder built.
const tokenPool = lazyPool<CountTask, number>("tokens", path.join(process.cwd(), "lib", "llm", "token-worker.mjs"), { minThreads: 1 });

/** Tokens of plain text, like countTextTokens; long texts are counted off the event loop. */
export async function countTextTokensAsync(text: string, model?: string): Promise<number> {
  if (text.length < ASYNC_MIN_CHARS) return countTextTokens(text, model);
  const workers = tokenPool.get();
  if (!workers) return countTextTokens(text, model);
  try {
    const count = await workers.run({ text, encoding: encodingForModel(model) });
    rememberTextTokens(text, model, count);
    return count;
  } catch (error) {
    // A worker that failed to start or died must not lose the message: count here.
    logger.error({ err: error }, "token worker failed; counting on the main thread");
    return countTextTokens(text, model);
  }
}

/** countMessageTokens, with long contents and tool-call arguments counted off the event loop. */
export async function countMessageTokensAsync(message: ChatMessage, model?: string): Promise<number> {
  const { framing, texts } = messageTexts(message);
  const counts = await Promise.all(texts.map((text) => countTextTokensAsync(text, model)));
  return counts.reduce((sum, count) => sum + count, framing);
}

/**
 * Made ready when a server starts, so that no request pays for it: the encoder of the
 * default encoding (tiktoken parses its rank table), the worker threads, and this
 * thread's own rank table (read in slices between requests) for the long pieces of the
 * texts it counts itself — the engine's synchronous counts.
 */
export async function warmTokenCounting(): Promise<void> {
  tiktokenEncoder("o200k_base");
  tokenPool.get();
  await warmRanks("o200k_base");
}

/** Texts the pool has counted since it started, and its threads (null: no pool yet, or none possible). */
export function tokenPoolStats(): { completed: number; threads: number } | null {
  const workers = tokenPool.started();
  return workers ? { completed: workers.completed, threads: workers.threads.length } : null;
}

/** Ends the worker threads (tests, shutdown); the next long count starts a new pool. */
export function closeTokenPool(): Promise<void> {
  return tokenPool.close();
}
