// The conversation layer's side of compression: load the active transcript, let the
// AutoCompressionManager decide and summarize, save its change in one transaction.
// Nothing here knows how compression decides.
import { logAttempts } from "../compression/change";
import { AutoCompressionManager } from "../compression/manager";
import { unapplied } from "../compression/records";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../compression/settings";
import type { AttemptRecord, CompressionChange, ProcessOptions, Transcript } from "../compression/types";
import { getDb } from "../db/client";
import { enqueueCompaction, pendingCompactionJobs, queueRunning } from "../queue";
import { getCompactionView, recordAttempts, saveCompressionChange } from "../db/compactions";
import { readSettings } from "../db/settings";
import { loadTranscript } from "../db/transcript";
import type { ConversationHead } from "../db/context-cache";
import { createSummarizer } from "../llm/summarizer";
import { CountCache } from "../llm/count-cache";
import { countMessageTokensAsync } from "../llm/token-pool";
import { tokenCounter } from "../llm/tokens";
import { modelCatalog } from "../llm/models";
import { logger } from "../log/logger";
import { recordCallUsage, recordCompression, timeSummary } from "../server/metrics";
import type { ChatTool } from "../llm/client";
import { backgroundRun, startBackgroundRun, withCompactionLock, withCompactionLockIfFree } from "./concurrency";
import { offeredNow } from "./tools/offered-now";
import type { BackgroundWorkView, CompactionView, ContextMeterView } from "../views";

const globalForCompressor = globalThis as unknown as { strataCompressor?: { manager: AutoCompressionManager } };

/** Exported so tests can see what is logged, and when. */
export const compressionLogger = logger.child({ module: "compression" });

function services() {
  if (!globalForCompressor.strataCompressor) {
    const summarizer = createSummarizer();
    const manager = new AutoCompressionManager({
      // Timed and counted here, around the engine's injected summarizer, so the engine stays unaware of metrics.
      summarizer: {
        complete: (request) =>
          timeSummary(async () => {
            const reply = await summarizer.complete(request);
            recordCallUsage("summary", reply.usage);
            return reply;
          }),
      },
      tokens: tokenCounter,
      models: modelCatalog,
      logger: compressionLogger,
    });
    globalForCompressor.strataCompressor = { manager };
  }
  return globalForCompressor.strataCompressor;
}

export function compressionManager(): AutoCompressionManager {
  return services().manager;
}

// Every turn and every context measure needs the system prompt's count; the prompt
// rarely changes, and a long one (up to 50,000 characters) is worth counting once.
const systemPromptCounts = new CountCache(1_000);

/** Tokens of a system prompt as a message (counted off the event loop when long, once per text). */
export function countSystemPrompt(text: string): Promise<number> {
  return systemPromptCounts.count(text, (content) => countMessageTokensAsync({ role: "system", content }));
}

async function loadActive(
  userId: string,
  conversationId: string,
  settings: CompressionSettings | undefined,
  known?: ConversationHead,
  /** The tools the request offers, when a turn knows them: nothing is read to find them. */
  given?: { definitions: readonly ChatTool[]; overheadTokens: number },
): Promise<{ transcript: Transcript; historyVersion: number }> {
  const { transcript, historyVersion } = await loadTranscript(await getDb(), userId, conversationId, countSystemPrompt, known);
  // Without settings (a retry's check) the default recall mode decides.
  const effective = settings ?? DEFAULT_SETTINGS;
  const offered = given ?? await offeredNow(
    { userId, conversationId, settings: effective },
    transcript.compactions.length > 0,
    transcript.model,
    modelCatalog.contextWindow(transcript.model, effective.contextWindowOverrides),
  );
  return { transcript: { ...transcript, toolTokens: offered.overheadTokens, tools: offered.definitions }, historyVersion };
}

/** The active context as the next request will be built from it (tool definitions included). */
export async function activeTranscript(userId: string, conversationId: string, settings?: CompressionSettings): Promise<Transcript> {
  return (await loadActive(userId, conversationId, settings)).transcript;
}

/**
 * A change as it was stored: `transcript` is what the next request must be built from
 * (the unchanged one when the save failed), `attempts` carry their final outcomes.
 */
export type AppliedChange = {
  change: CompressionChange;
  transcript: Transcript;
  compactions: CompactionView[];
  attempts: AttemptRecord[];
  saved: boolean;
};

async function persist(
  userId: string,
  conversationId: string,
  before: Transcript,
  change: CompressionChange,
  historyVersion: number,
): Promise<AppliedChange> {
  const db = await getDb();
  try {
    const stored = await saveCompressionChange(db, userId, conversationId, change, historyVersion);
    logAttempts(compressionLogger, conversationId, stored.attempts);
    recordCompression(stored.attempts, stored.saved ? change.created.reduce((sum, record) => sum + record.summaryTokens, 0) : 0);
    const compactions = stored.saved ? await Promise.all(change.created.map((record) => getCompactionView(db, userId, record.id))) : [];
    return { change, transcript: stored.saved ? change.transcript : before, compactions, attempts: stored.attempts, saved: stored.saved };
  } catch (error) {
    // The model call goes on without the compaction: the request is still fitted to the
    // hard limit from the unchanged transcript, and nothing half-saved remains.
    const message = error instanceof Error ? error.message : String(error);
    const attempts = change.attempts.map((attempt) =>
      unapplied(attempt, { outcome: "failed", reason: `the compaction could not be saved (${attempt.reason})`, error: message }),
    );
    logAttempts(compressionLogger, conversationId, attempts);
    recordCompression(attempts, 0);
    await recordAttempts(db, userId, conversationId, attempts).catch(() => undefined);
    return { change, transcript: before, compactions: [], attempts, saved: false };
  }
}

type Work = (transcript: Transcript) => Promise<CompressionChange> | CompressionChange;

/**
 * Loads the active transcript, runs `work` on it and saves its change; called holding
 * the compaction lock (./concurrency), so the transcript is loaded after it is held: a
 * compaction another instance just saved is seen, and its summary never paid for twice.
 */
function loadWorkSave(userId: string, conversationId: string, settings: CompressionSettings, work: Work): () => Promise<AppliedChange> {
  return async () => {
    const { transcript, historyVersion } = await loadActive(userId, conversationId, settings);
    return persist(userId, conversationId, transcript, await work(transcript), historyVersion);
  };
}

/**
 * Runs `work` on the freshly loaded transcript holding the conversation's compaction
 * lock (waiting for it), then saves its change: a manual compaction, a provided summary.
 */
export function compactUnderLock(userId: string, conversationId: string, settings: CompressionSettings, work: Work): Promise<AppliedChange> {
  return withCompactionLock(conversationId, loadWorkSave(userId, conversationId, settings, work));
}

/**
 * The automatic check before a model call. When nothing is due the turn goes on at once,
 * without the compaction lock: a pre-emptive compaction running here or on another
 * instance (which holds it through its summary call) does not hold up a turn that fits.
 * When a trigger fired but the request still fits the hard limit, the turn compacts
 * only if nobody is compacting this conversation already (a background job here, or
 * anyone holding either part of the lock): that summary is the compaction the
 * trigger asks for, and the next turn finds it saved. Only a request over the hard limit
 * waits for a run under way, and is then compacted (or, failing that, truncated).
 */
export async function compressBeforeCall(
  userId: string,
  conversationId: string,
  settings: CompressionSettings,
  options: Pick<ProcessOptions, "signal" | "onSummarizing"> & {
    /** The request is over the hard limit and waits for the compaction under way. */
    onAwaiting?: () => void;
    /** The conversation row as the turn's own statement just left it (see loadTranscript). */
    known?: ConversationHead | null;
    /** The tools the request offers (the turn's set), when not what a context loaded outside a turn assumes. */
    offered?: { definitions: readonly ChatTool[]; overheadTokens: number };
  } = {},
): Promise<AppliedChange> {
  const { onAwaiting, known, offered, ...processOptions } = options;
  // The request is judged and fitted as it will be sent.
  const sized = (transcript: Transcript): Transcript =>
    offered === undefined
      ? transcript
      : // The tools this request offers open its prefix: its summary requests offer the same.
        { ...transcript, toolTokens: offered.overheadTokens, tools: offered.definitions.length > 0 ? offered.definitions : undefined };
  const current = sized((await loadActive(userId, conversationId, settings, known ?? undefined, offered)).transcript);
  const unchanged: AppliedChange = { change: { created: [], attempts: [], transcript: current }, transcript: current, compactions: [], attempts: [], saved: true };
  const need = compressionManager().needBeforeCall(current, settings);
  if (need === "nothing") return unchanged;
  const compress = (transcript: Transcript) => compressionManager().process(sized(transcript), settings, processOptions);
  const running = backgroundRun(conversationId);
  let applied: AppliedChange | undefined;
  if (need === "due" && running) {
    applied = unchanged;
  } else if (need === "due") {
    const attempt = await withCompactionLockIfFree(conversationId, loadWorkSave(userId, conversationId, settings, compress));
    applied = attempt.taken ? attempt.value : undefined;
  } else {
    if (running) {
      onAwaiting?.();
      await running.done;
    }
    applied = await compactUnderLock(userId, conversationId, settings, compress);
  }
  // A save that failed gives back the transcript as loaded, at the default size.
  return applied ? { ...applied, transcript: sized(applied.transcript) } : unchanged;
}

/**
 * One pre-emptive compaction (the manager does nothing below the pre-emptive level).
 * Registered so a turn waits for it and a rewind stops it; throws what fails, so the
 * queue retries it. Joins a run of this conversation already under way here.
 */
export function runBackgroundCompaction(userId: string, conversationId: string): Promise<void> {
  return startBackgroundRun(conversationId, async (signal) => {
    const { settings } = await readSettings(await getDb(), userId, conversationId);
    await compactUnderLock(userId, conversationId, settings, (transcript) => compressionManager().process(transcript, settings, { background: true, signal }));
  });
}

/**
 * After a reply: if the context is past the pre-emptive level, compact off the user's
 * path, so the next turn finds it done. A server with the queue (PostgreSQL) sends it
 * to pg-boss, which runs it on whichever instance is free; anything else runs it here.
 */
export function scheduleBackgroundCompaction(userId: string, conversationId: string): Promise<void> {
  const failed = (what: string) => (error: unknown) => logger.error({ err: error, conversationId }, what);
  if (queueRunning()) return enqueueCompaction({ userId, conversationId }).catch(failed("could not queue a background compaction"));
  return runBackgroundCompaction(userId, conversationId).catch(failed("background compaction failed"));
}

/** Background compaction of the conversation not finished yet: queued jobs, and a run in this process. */
export async function pendingBackgroundWork(conversationId: string): Promise<BackgroundWorkView[]> {
  const local = backgroundRun(conversationId);
  const running: BackgroundWorkView[] = local
    ? [{ state: "running", where: "in-process", since: local.startedAt.toISOString(), attempt: 1, maxAttempts: 1, nextRetryAt: null }]
    : [];
  // A job this process runs from the queue is also in the local map; the queue's row says more.
  const queued = await pendingCompactionJobs(conversationId);
  return queued.some((job) => job.state === "running") ? queued : [...running, ...queued];
}

/** Waits for any background compaction of this conversation (tests, benchmarks, shutdown). */
export async function backgroundSettled(conversationId: string): Promise<void> {
  await backgroundRun(conversationId)?.done;
}

export async function contextMeter(
  userId: string,
  conversationId: string,
  settings?: CompressionSettings,
  transcript?: Transcript,
): Promise<ContextMeterView> {
  const applied = settings ?? (await readSettings(await getDb(), userId, conversationId)).settings;
  const current = transcript ?? (await activeTranscript(userId, conversationId, applied));
  const manager = compressionManager();
  const budget = manager.budget(current, applied);
  return {
    ...manager.measure(current, applied),
    model: current.model,
    threshold: budget.threshold,
    preemptiveThreshold: budget.preemptiveThreshold,
    preemptiveLatest: budget.preemptiveLatestTokens / budget.contextWindow,
    hardLimit: budget.hardLimit,
    reserve: budget.reserve,
    summaryMaxTokens: budget.summaryMaxTokens,
    adjustments: budget.adjustments,
  };
}
