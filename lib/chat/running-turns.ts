// Turns in flight, so "stop" can reach a turn from another request (the stop button
// is its own server action; a closed HTTP connection aborts through its signal).
type RunningTurn = { controller: AbortController };

const globalForTurns = globalThis as unknown as { strataTurns?: Map<string, Set<RunningTurn>> };
const turns = (globalForTurns.strataTurns ??= new Map());

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
    },
  };
}

/** Aborts every turn running in this conversation; returns how many were stopped. */
export function stopTurns(conversationId: string): number {
  const set = turns.get(conversationId);
  if (!set) return 0;
  for (const entry of set) entry.controller.abort();
  return set.size;
}
