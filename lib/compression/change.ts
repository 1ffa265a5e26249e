import { applyCompaction } from "./apply";
import type { AttemptRecord, CompactionRecord, CompressionChange, CompressionLogger, TokenCounter, Transcript } from "./types";

/** Accumulates one call's records in insertion order, with the transcript as it becomes. */
export class ChangeBuilder {
  readonly created: CompactionRecord[] = [];
  readonly attempts: AttemptRecord[] = [];
  readonly setAside: { id: string; text: string }[] = [];
  /** Set when the rounds one call may make ran out with the request still over the hard limit: how many there were. */
  roundsRanOut: number | null = null;

  constructor(
    public transcript: Transcript,
    private readonly tokens: TokenCounter,
  ) {}

  apply(record: CompactionRecord): void {
    // A record that absorbs a summary out of view (a truncation) makes its stand-in moot.
    const absorbed = new Set(record.childIds);
    this.setAside.splice(0, this.setAside.length, ...this.setAside.filter((entry) => !absorbed.has(entry.id)));
    this.created.push(record);
    this.transcript = applyCompaction(this.transcript, record, this.tokens);
  }

  /** `id` (an active summary) is out of the model's view and stands there as `text`; see CompactionRecord.outOfView. */
  setOutOfView(id: string, text: string): void {
    const made = this.created.findIndex((record) => record.id === id);
    if (made >= 0) this.created[made] = { ...this.created[made]!, outOfView: text };
    else this.setAside.splice(0, this.setAside.length, ...this.setAside.filter((entry) => entry.id !== id), { id, text });
    this.transcript = { ...this.transcript, compactions: this.transcript.compactions.map((c) => (c.id === id ? { ...c, outOfView: text } : c)) };
  }

  attempt(attempt: AttemptRecord): void {
    this.attempts.push(attempt);
  }

  result(): CompressionChange {
    return { created: [...this.created], ...(this.setAside.length ? { setAside: [...this.setAside] } : {}), attempts: [...this.attempts], transcript: this.transcript };
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
