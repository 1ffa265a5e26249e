import { applyCompaction } from "./apply";
import type { AttemptRecord, CompactionRecord, CompressionChange, CompressionLogger, Transcript } from "./types";

/** Accumulates one call's records in insertion order, with the transcript as it becomes. */
export class ChangeBuilder {
  readonly created: CompactionRecord[] = [];
  readonly attempts: AttemptRecord[] = [];

  constructor(public transcript: Transcript) {}

  apply(record: CompactionRecord): void {
    this.created.push(record);
    this.transcript = applyCompaction(this.transcript, record);
  }

  attempt(attempt: AttemptRecord): void {
    this.attempts.push(attempt);
  }

  result(): CompressionChange {
    return { created: [...this.created], attempts: [...this.attempts], transcript: this.transcript };
  }
}

/**
 * One structured log line per attempt (operators grep them), written once its outcome is final — after
 * the save, since a save that loses to a concurrent one turns "applied" into "skipped".
 */
export function logAttempts(logger: CompressionLogger, conversationId: string, attempts: AttemptRecord[]): void {
  for (const attempt of attempts) {
    const fields = { conversationId, ...attempt };
    const message = `compression ${attempt.outcome}: ${attempt.reason}`;
    if (attempt.outcome === "failed" || attempt.trigger === "hard_limit") logger.warn(fields, message);
    else logger.info(fields, message);
  }
}
