import { applyCompaction } from "./apply";
import type { AttemptRecord, CompactionRecord, CompressionChange, CompressionLogger, Transcript } from "./types";

/** Accumulates one call's records in insertion order and logs every attempt (REQ-3.6). */
export class ChangeBuilder {
  readonly created: CompactionRecord[] = [];
  readonly attempts: AttemptRecord[] = [];

  constructor(
    public transcript: Transcript,
    private readonly logger: CompressionLogger,
  ) {}

  apply(record: CompactionRecord): void {
    this.created.push(record);
    this.transcript = applyCompaction(this.transcript, record);
  }

  attempt(attempt: AttemptRecord, extra: Record<string, unknown> = {}): void {
    this.attempts.push(attempt);
    const fields = { conversationId: this.transcript.conversationId, ...attempt, ...extra };
    const message = `compression ${attempt.outcome}: ${attempt.reason}`;
    if (attempt.outcome === "failed") this.logger.warn(fields, message);
    else if (attempt.trigger === "hard_limit") this.logger.warn(fields, message);
    else this.logger.info(fields, message);
  }

  result(): CompressionChange {
    return { created: [...this.created], attempts: [...this.attempts], transcript: this.transcript };
  }
}
