import type { AttemptView, CompactionView, ContextMeterView, MessageView } from "../views";

/** What a running turn tells the browser, in order. Serializable (NDJSON / RSC). */
export type TurnEvent =
  | { type: "message"; message: MessageView }
  /** The conversation was named after the message just stored (its first). */
  | { type: "title"; title: string }
  | { type: "status"; stage: "compressing"; messageCount: number }
  /** Over the hard limit while a compaction of this conversation is being written: the turn waits for it. */
  | { type: "status"; stage: "awaiting_compaction" }
  | { type: "compaction"; compaction: CompactionView }
  | { type: "compaction_failed"; attempt: AttemptView }
  | { type: "assistant_start"; model: string }
  | { type: "delta"; text: string }
  | { type: "error"; message: string; retryable: boolean }
  | { type: "done"; context: ContextMeterView };
