// "Continue" after Stop: the model gets the conversation with the stopped reply as the
// assistant's last message and what it writes is appended to that same reply, so the
// view, the export and the next turn see one reply. No tools are offered: a
// continuation finishes text, it does not start a tool round.
import type { CompressionSettings } from "../compression/settings";
import { getDb } from "../db/client";
import { extendReply } from "../db/messages";
import { ModelError, streamChat } from "../llm/client";
import { countMessageTokensAsync } from "../llm/token-pool";
import { config } from "../config";
import { recordTurn } from "../server/metrics";
import { activeTranscript, compressBeforeCall, compressionManager, contextMeter, scheduleBackgroundCompaction } from "./compressor";
import type { TurnEvent } from "./events";
import { continuationSeparator } from "./join-continuation";
import { registerTurn } from "./running-turns";
import type { TurnGate } from "./turn-gate";

export type ContinueInput = {
  userId: string;
  conversationId: string;
  /** The stopped reply, the conversation's last shown message (checked by the caller under the gate). */
  messageId: string;
  /** Its text as stored, which the continuation is joined to. */
  partial: string;
  settings: CompressionSettings;
  gate: TurnGate;
  signal?: AbortSignal;
};

export async function* continueReply(input: ContinueInput): AsyncGenerator<TurnEvent> {
  const { userId, conversationId, settings } = input;
  const turn = registerTurn(conversationId, input.signal);
  try {
    // The continuation makes the reply longer: the request must still fit the window.
    const applied = await compressBeforeCall(userId, conversationId, settings, { signal: turn.signal });
    for (const compaction of applied.compactions) yield { type: "compaction", compaction };
    if (turn.signal.aborted) return;
    const { messages, breakdown } = compressionManager().buildRequest(applied.transcript, settings);
    const model = applied.transcript.model;
    yield { type: "assistant_start", model };

    let text = "";
    let usage: { promptTokens: number; completionTokens: number } | undefined;
    let failure: ModelError | undefined;
    try {
      for await (const event of streamChat({ model, messages, signal: turn.signal, timeoutMs: config().STRATA_MODEL_TIMEOUT_MS })) {
        if (event.type === "text") {
          // The space between the stopped reply and the continuation goes out with its first text.
          const delta = text === "" ? continuationSeparator(input.partial, event.delta) + event.delta : event.delta;
          text += delta;
          yield { type: "delta", text: delta };
        } else if (event.type === "usage") {
          usage = { promptTokens: event.promptTokens, completionTokens: event.completionTokens };
        }
      }
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      failure = error;
    }
    const finished = !failure && !turn.signal.aborted;
    recordTurn(finished ? "complete" : turn.signal.aborted ? "stopped" : "error", usage?.promptTokens);
    // A continuation cut short leaves the reply stopped (still in the model's view, and
    // still continuable); nothing that arrived is dropped.
    if (text || finished) {
      const message = await extendReply(
        await getDb(),
        userId,
        conversationId,
        input.messageId,
        {
          text,
          status: finished ? "complete" : "stopped",
          // No tools were offered, so the request was everything but their definitions.
          requestTokens: breakdown.systemTokens + breakdown.summaryTokens + breakdown.messageTokens,
          ...(usage ? { usage } : {}),
        },
        (content) => countMessageTokensAsync({ role: "assistant", content }),
      );
      yield { type: "message", message };
    }
    if (failure && !turn.signal.aborted) {
      yield { type: "error", message: failure.message, retryable: false };
      return;
    }
    if (turn.signal.aborted) return;
    const after = await activeTranscript(userId, conversationId);
    yield { type: "done", context: await contextMeter(userId, conversationId, settings, after) };
    // As after a turn: only past the pre-emptive level.
    if (compressionManager().dueAfterReply(after, settings)) void scheduleBackgroundCompaction(userId, conversationId);
  } finally {
    turn.release();
    await input.gate.close();
  }
}
