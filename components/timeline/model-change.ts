// Where the conversation's model changed between replies, derived from what every reply
// already stores (the model that wrote it): nothing new is stored, and an imported or
// old conversation shows its changes too. Pure, for the timeline and its tests.
import type { TimelineItem } from "@/lib/views";

/** The replies (by message id) written by another model than the reply before them, with that model. */
export function modelChanges(items: readonly TimelineItem[]): Map<string, string> {
  const changes = new Map<string, string>();
  let previous: string | null = null;
  for (const item of items) {
    if (item.type !== "message" || item.message.role !== "assistant" || !item.message.model) continue;
    const model = item.message.model;
    if (previous !== null && model !== previous) changes.set(item.message.id, model);
    previous = model;
  }
  return changes;
}

/** A window as people say it: 8K, 128K, 1M. */
export function shortWindow(tokens: number): string {
  if (tokens >= 1_000_000) return `${Math.round(tokens / 1_000_000)}M`;
  // 128,000 is "128K" and so is 131,072: windows come in both thousands and powers of two.
  if (tokens >= 1_000) return `${Number.isInteger(tokens / 1_000) || !Number.isInteger(tokens / 1_024) ? Math.round(tokens / 1_000) : tokens / 1_024}K`;
  return String(tokens);
}
