// "Continue" after Stop: the reply loop of a turn (streamReply) with the stopped reply
// as what it writes into; see ReplyTarget for what that changes.
import type { CompressionSettings } from "../compression/settings";
import type { TurnEvent } from "./events";
import { streamReply } from "./turn";
import type { TurnGate } from "./concurrency";

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

export function continueReply(input: ContinueInput): AsyncGenerator<TurnEvent> {
  const { messageId, partial, ...turn } = input;
  return streamReply({ ...turn, target: { kind: "continuation", messageId, partial } });
}
