// The compaction lock: held while a compaction of one conversation is decided, its
// summary written and saved, so the same summary is never paid for twice. It has two
// parts, always taken in this order: this process's (a KeyedLock) and, on PostgreSQL,
// every instance's (a session advisory lock, lib/db/cluster.ts). Also here: the
// pre-emptive compaction running in the background in this process, which a turn over
// the hard limit waits for and an edit of the history stops.
import { tryConversationLease, withConversationLease, type Leased } from "../../db/cluster";
import { KeyedLock } from "./keyed-lock";

export type BackgroundRun = { done: Promise<void>; controller: AbortController; startedAt: Date };

const globalForLocks = globalThis as unknown as { strataCompactionLock?: { here: KeyedLock; background: Map<string, BackgroundRun> } };
const state = (globalForLocks.strataCompactionLock ??= { here: new KeyedLock(), background: new Map() });

/** Runs `work` holding the conversation's compaction lock, here and across instances; waits while anyone holds it. */
export function withCompactionLock<T>(conversationId: string, work: () => Promise<T>): Promise<T> {
  return state.here.run(conversationId, () => withConversationLease(conversationId, work));
}

/** withCompactionLock without the wait: nothing runs while anyone, in this process or another, holds it. */
export async function withCompactionLockIfFree<T>(conversationId: string, work: () => Promise<T>): Promise<Leased<T>> {
  const result = await state.here.tryRun(conversationId, () => tryConversationLease(conversationId, work));
  return result ?? { taken: false };
}

/**
 * Runs `work` holding this process's part of the lock, after stopping a background
 * compaction of the conversation here (a rewind or an edit: a summary of messages about
 * to be hidden must not be paid for, and could not be saved anyway). A compaction on
 * another instance is not waited for: its save is refused by the history version.
 */
export async function withCompactionStoppedHere<T>(conversationId: string, work: () => Promise<T>): Promise<T> {
  state.background.get(conversationId)?.controller.abort();
  return state.here.run(conversationId, work);
}

/** The background compaction of the conversation running in this process, if any. */
export function backgroundRun(conversationId: string): BackgroundRun | undefined {
  return state.background.get(conversationId);
}

/** Starts `run` as the conversation's background compaction here, or joins the one already under way. */
export function startBackgroundRun(conversationId: string, run: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const existing = state.background.get(conversationId);
  if (existing) return existing.done;
  const controller = new AbortController();
  const done = run(controller.signal).finally(() => state.background.delete(conversationId));
  state.background.set(conversationId, { done: done.catch(() => undefined), controller, startedAt: new Date() });
  return done;
}
