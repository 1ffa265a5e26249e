// The conversation layer's side of compression: load the active transcript, let the
// AutoCompressionManager decide and summarize, save its change in one transaction.
// Nothing here knows how compression decides (seed 003 §5.3).
import { AutoCompressionManager } from "../compression/manager";
import type { CompressionSettings } from "../compression/settings";
import type { CompressionChange, ProcessOptions, Transcript } from "../compression/types";
import { getDb } from "../db/client";
import { saveCompressionChange, getCompactionView } from "../db/compactions";
import { readSettings } from "../db/settings";
import { loadTranscript } from "../db/transcript";
import { createSummarizer } from "../llm/summarizer";
import { tokenCounter, countMessageTokens } from "../llm/tokens";
import { modelCatalog, contextWindow } from "../llm/models";
import { logger } from "../log/logger";
import { KeyedLock } from "./keyed-lock";
import type { CompactionView, ContextMeterView } from "../views";

const globalForCompressor = globalThis as unknown as {
  strataCompressor?: { manager: AutoCompressionManager; lock: KeyedLock; background: Map<string, Promise<void>> };
};

function services() {
  if (!globalForCompressor.strataCompressor) {
    const manager = new AutoCompressionManager({
      settings: { read: async () => readSettings(await getDb()) },
      summarizer: createSummarizer(),
      tokens: tokenCounter,
      models: modelCatalog,
      logger: logger.child({ module: "compression" }),
    });
    globalForCompressor.strataCompressor = { manager, lock: new KeyedLock(), background: new Map() };
  }
  return globalForCompressor.strataCompressor;
}

export function compressionManager(): AutoCompressionManager {
  return services().manager;
}

export function countSystemPrompt(text: string): number {
  return countMessageTokens({ role: "system", content: text });
}

export async function activeTranscript(conversationId: string): Promise<Transcript> {
  return (await loadTranscript(await getDb(), conversationId, countSystemPrompt)).transcript;
}

/** A saved (or refused) change, with the settings it was made under for the request that follows. */
export type AppliedChange = { change: CompressionChange; compactions: CompactionView[]; saved: boolean; settings: CompressionSettings };

async function persist(conversationId: string, change: CompressionChange, settings: CompressionSettings): Promise<AppliedChange> {
  const db = await getDb();
  const { saved } = await saveCompressionChange(db, conversationId, change);
  const compactions = saved ? await Promise.all(change.created.map((record) => getCompactionView(db, record.id))) : [];
  return { change, compactions, saved, settings };
}

/** Runs `work` on the freshly loaded transcript while holding the conversation's lock, then saves. */
export function withTranscript(
  conversationId: string,
  work: (transcript: Transcript, settings: CompressionSettings) => Promise<CompressionChange> | CompressionChange,
): Promise<AppliedChange> {
  return services().lock.run(conversationId, async () => {
    const transcript = await activeTranscript(conversationId);
    const settings = await readSettings(await getDb());
    return persist(conversationId, await work(transcript, settings), settings);
  });
}

/** The automatic check before a model call. A background run already under way is awaited, not repeated. */
export async function compressBeforeCall(
  conversationId: string,
  signal?: AbortSignal,
  onSummarizing?: ProcessOptions["onSummarizing"],
): Promise<AppliedChange> {
  const running = services().background.get(conversationId);
  if (running) await running;
  return withTranscript(conversationId, (transcript) =>
    compressionManager().process(transcript, { ...(signal ? { signal } : {}), ...(onSummarizing ? { onSummarizing } : {}) }),
  );
}

/**
 * After a reply: if the context is past the pre-emptive level, compact now, off the
 * user's path, so the next turn finds it done.
 */
export function scheduleBackgroundCompaction(conversationId: string): Promise<void> {
  const { background } = services();
  const existing = background.get(conversationId);
  if (existing) return existing;
  const job = withTranscript(conversationId, (transcript) =>
    compressionManager().process(transcript, { background: true }),
  )
    .then(() => undefined)
    .catch((error: unknown) => logger.error({ err: error, conversationId }, "background compaction failed"))
    .finally(() => background.delete(conversationId));
  background.set(conversationId, job);
  return job;
}

/** Waits for any background compaction of this conversation (tests, benchmarks, shutdown). */
export async function backgroundSettled(conversationId: string): Promise<void> {
  await services().background.get(conversationId);
}

export async function contextMeter(conversationId: string, transcript?: Transcript): Promise<ContextMeterView> {
  const db = await getDb();
  const settings = await readSettings(db);
  const current = transcript ?? (await activeTranscript(conversationId));
  const breakdown = compressionManager().measure(current, settings);
  const window = contextWindow(current.model, settings.contextWindowOverrides);
  return {
    ...breakdown,
    threshold: settings.threshold,
    preemptiveThreshold: settings.preemptiveThreshold,
    hardLimit: Math.max(window - settings.hardLimitReserve, 0),
  };
}
