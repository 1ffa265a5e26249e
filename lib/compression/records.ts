import { applyCompaction } from "./apply";
import { worthClearing } from "./clearing";
import type { ChangeBuilder } from "./change";
import { contextEntryCount, measureTranscript, type MeasureDeps } from "./measure";
import type { AttemptContext } from "./pass";
import { formatCount, renderedCompactionTokens } from "./render";
import { heldSeqs } from "./selection";
import type { CompressionSettings } from "./settings";
import type { AttemptRecord, CallUsage, CompactionRecord, TokenCounter, Transcript, TranscriptMessage } from "./types";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A record before id, size and the context figures around it are filled in. */
export type RecordFields = DistributiveOmit<
  CompactionRecord,
  "id" | "summaryTokens" | "keptSeqs" | "messagesBefore" | "messagesAfter" | "tokensBefore" | "tokensAfter" | "createdAt"
>;

/** One step to commit: the record, what it replaces, and how its attempt reads either way. */
export type CommitStep = { fields: RecordFields; replacedTokens: number; what: string; applied: string; model?: string };

export type RecorderDeps = MeasureDeps & { newId: () => string; now: () => Date };

/** A result inside a clearing's range that it leaves as it is. */
function keptByClearing(message: TranscriptMessage, tokens: TokenCounter): boolean {
  return message.role === "tool" && message.shown?.as !== "cleared" && !worthClearing(message, tokens);
}

/** Makes compaction records and attempt records, with the context figures around them. */
export class Recorder {
  constructor(private readonly deps: RecorderDeps) {}

  /** Completes a record with id, size, the messages it keeps beside itself and the context figures around it. */
  make(transcript: Transcript, settings: CompressionSettings, fields: RecordFields): CompactionRecord {
    const held = heldSeqs(transcript);
    const before = measureTranscript(transcript, settings, this.deps);
    const draft: CompactionRecord = {
      ...fields,
      id: this.deps.newId(),
      summaryTokens: this.deps.tokens.count(fields.summary),
      // A clearing keeps the results of its range it does not clear (pinned ones, ones shorter than their note);
      // anything else keeps what compression must leave alone.
      keptSeqs: transcript.messages
        .filter((m) => m.seq >= fields.fromSeq && m.seq <= fields.toSeq && (fields.kind === "clearing" ? keptByClearing(m, this.deps.tokens) : held.has(m.seq)))
        .map((m) => m.seq),
      messagesBefore: contextEntryCount(transcript),
      messagesAfter: 0,
      tokensBefore: before.totalTokens,
      tokensAfter: 0,
      createdAt: this.deps.now(),
    };
    const after = applyCompaction(transcript, draft, this.deps.tokens);
    return { ...draft, messagesAfter: contextEntryCount(after), tokensAfter: measureTranscript(after, settings, this.deps, before.calibration).totalTokens };
  }

  attemptBase(transcript: Transcript, context: AttemptContext) {
    return {
      trigger: context.trigger,
      strategy: context.strategy,
      background: context.background,
      messagesBefore: contextEntryCount(transcript),
      tokensBefore: measureTranscript(transcript, context.settings, this.deps).totalTokens,
    };
  }

  skipped(transcript: Transcript, context: AttemptContext, reason: string, durationMs = 0, model?: string, usage?: CallUsage): AttemptRecord {
    return { ...this.attemptBase(transcript, context), outcome: "skipped", reason, durationMs, ...(model ? { model } : {}), ...(usage ? { usage } : {}) };
  }

  failed(transcript: Transcript, context: AttemptContext, failure: { reason: string; error?: string; model?: string; durationMs: number; usage?: CallUsage }): AttemptRecord {
    return { ...this.attemptBase(transcript, context), outcome: "failed", ...failure };
  }

  /**
   * Builds the record, checks that it really is shorter than what it replaces (a
   * summary that is not would only make things worse) and applies it — or records
   * why not. True when applied.
   */
  commit(change: ChangeBuilder, context: AttemptContext, step: CommitStep): boolean {
    const base = this.attemptBase(change.transcript, context);
    const record = this.make(change.transcript, context.settings, step.fields);
    const recordTokens = renderedCompactionTokens(record, this.deps.tokens);
    const model = step.model ? { model: step.model } : {};
    const usage = record.usage ? { usage: record.usage } : {};
    if (recordTokens >= step.replacedTokens) {
      change.attempt({
        ...base,
        ...model,
        outcome: "failed",
        reason: `${step.what} (${formatCount(recordTokens)} tokens) is not shorter than the ${formatCount(step.replacedTokens)} tokens it replaces`,
        durationMs: record.durationMs,
      });
      return false;
    }
    change.apply(record);
    change.attempt({
      ...base,
      ...model,
      ...usage,
      outcome: "applied",
      reason: step.applied,
      compactionId: record.id,
      messagesAfter: record.messagesAfter,
      tokensAfter: record.tokensAfter,
      durationMs: record.durationMs,
    });
    return true;
  }
}

/**
 * An applied attempt whose compaction did not reach the database after all (a concurrent
 * save won, or the save failed): it keeps its figures before, loses the compaction and the
 * figures after, and says why.
 */
export function unapplied(
  attempt: AttemptRecord,
  outcome: { outcome: "skipped"; reason: string } | { outcome: "failed"; reason: string; error: string },
): AttemptRecord {
  if (attempt.outcome !== "applied") return attempt;
  const { compactionId: _compaction, messagesAfter: _messages, tokensAfter: _tokens, ...base } = attempt;
  return { ...base, ...outcome };
}
