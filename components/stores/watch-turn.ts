// Reads the live stream of a turn another view of the conversation started
// (GET /api/conversations/:id/live, NDJSON), checking each event like the sending tab does.
import type { TurnEvent } from "@/lib/chat/events";
import { checkedEvent } from "./stream-turn";

/** The running turn's events, from what it has done so far to its end; nothing when the server runs none. */
export async function* watchTurn(conversationId: string, signal: AbortSignal): AsyncGenerator<TurnEvent> {
  const response = await fetch(`/api/conversations/${encodeURIComponent(conversationId)}/live`, { cache: "no-store", signal }).catch(() => null);
  if (!response?.ok || !response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  try {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      buffered += chunk.value;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (!line.trim()) continue;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          return;
        }
        const { event, valid } = checkedEvent(value);
        // A watcher only draws; an unreadable event ends the watch and the stored state is shown instead.
        if (!valid) return;
        yield event;
      }
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
