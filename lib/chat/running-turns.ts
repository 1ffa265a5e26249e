// Turns in flight, so "stop" can reach a turn from another request (the stop button
// is its own server action; a closed HTTP connection aborts through its signal) and
// from another instance (broadcastStop: every instance listening on the database
// stops its turns of that conversation, lib/server/start.ts).
import { broadcastStop } from "../db/cluster";

type RunningTurn = { controller: AbortController };

const globalForTurns = globalThis as unknown as { strataTurns?: Map<string, Set<RunningTurn>>; strataTurnsIdle?: Set<() => void> };
const turns = (globalForTurns.strataTurns ??= new Map());
const idleWaiters = (globalForTurns.strataTurnsIdle ??= new Set());

export function registerTurn(conversationId: string, external?: AbortSignal) {
  const controller = new AbortController();
  const entry: RunningTurn = { controller };
  const onAbort = () => controller.abort();
  if (external?.aborted) controller.abort();
  external?.addEventListener("abort", onAbort, { once: true });
  const set = turns.get(conversationId) ?? new Set<RunningTurn>();
  set.add(entry);
  turns.set(conversationId, set);
  return {
    signal: controller.signal,
    release() {
      external?.removeEventListener("abort", onAbort);
      set.delete(entry);
      if (set.size === 0) turns.delete(conversationId);
      if (turns.size === 0) for (const resolve of idleWaiters) resolve();
    },
  };
}

/** Aborts every turn running in this conversation in this process; returns how many were stopped. */
export function stopTurns(conversationId: string): number {
  const set = turns.get(conversationId);
  if (!set) return 0;
  for (const entry of set) entry.controller.abort();
  return set.size;
}

/**
 * Stops the conversation's turns here and on every other instance on the same
 * PostgreSQL. Returns how many were stopped in this process (others don't answer).
 */
export async function stopTurnsEverywhere(conversationId: string): Promise<number> {
  const stopped = stopTurns(conversationId);
  await broadcastStop(conversationId);
  return stopped;
}

/** Whether a turn of this conversation runs in this process. */
export function turnRunsHere(conversationId: string): boolean {
  return turns.has(conversationId);
}

export function runningTurnCount(): number {
  let count = 0;
  for (const set of turns.values()) count += set.size;
  return count;
}

/**
 * Shutdown: stops every running turn (each saves what it has, marked stopped) and
 * waits until all have finished or `timeoutMs` passed. Returns how many were still running.
 */
export async function stopAllTurns(timeoutMs: number): Promise<number> {
  for (const conversationId of turns.keys()) stopTurns(conversationId);
  if (turns.size > 0) {
    let resolveIdle!: () => void;
    const idle = new Promise<void>((resolve) => (resolveIdle = resolve));
    idleWaiters.add(resolveIdle);
    const timer = setTimeout(resolveIdle, timeoutMs);
    await idle;
    clearTimeout(timer);
    idleWaiters.delete(resolveIdle);
  }
  return runningTurnCount();
}
