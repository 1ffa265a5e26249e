import type { ChangeBuilder } from "./change";
import type { MeasureDeps } from "./measure";
import type { RunContext } from "./pass";
import type { RecordFields, Recorder } from "./records";
import { formatCount } from "./render";
import { requestTokens } from "./request";
import { planTruncation, type TruncationDraft } from "./truncation";
import type { Transcript } from "./types";

function truncationFields(draft: TruncationDraft): RecordFields {
  return { ...draft, kind: "truncation", trigger: "hard_limit", strategy: "truncation", background: false, durationMs: 0 };
}

/**
 * The last resort before a model call: if the request is still over the hard limit,
 * the oldest part leaves the model's view as one truncation record that keeps what it
 * can of what that part said (see planTruncation).
 */
export function enforceHardLimit(change: ChangeBuilder, context: RunContext, deps: MeasureDeps & { recorder: Recorder }): void {
  const transcript = change.transcript;
  const { settings, budget } = context;
  const request = (candidate: Transcript) => requestTokens(candidate, settings, deps);
  const before = request(transcript);
  if (before <= budget.hardLimit) return;
  const failed = change.attempts.some((a) => a.outcome === "failed");
  const why = !settings.enabled
    ? "automatic compression is disabled"
    : failed
      ? "summarizing failed"
      : change.roundsRanOut !== null
        ? `the ${change.roundsRanOut} summaries one turn may write are written`
        : "nothing more can be summarized";
  const reason = `request of ${formatCount(before)} tokens exceeds the hard limit of ${formatCount(budget.hardLimit)} (window ${formatCount(budget.contextWindow)} minus reserve ${formatCount(budget.reserve)}) and ${why}`;
  const attemptContext = { ...context, trigger: "hard_limit" as const, strategy: "truncation" as const };
  const plan = planTruncation({
    transcript,
    keepRecentCount: settings.keepRecentCount,
    requestTokens: request,
    hardLimit: budget.hardLimit,
    maxCondensedTokens: budget.levelBudgetTokens,
    tokens: deps.tokens,
    preserveFacts: settings.preserveFactLines,
    toRecord: (draft) => deps.recorder.make(transcript, settings, truncationFields(draft)),
  });
  if (!plan) {
    change.attempt(deps.recorder.skipped(transcript, attemptContext, `${reason}; nothing can be dropped, the request will be cut instead`));
    return;
  }
  for (const draft of plan.drafts) {
    const base = deps.recorder.attemptBase(change.transcript, attemptContext);
    const record = deps.recorder.make(change.transcript, settings, truncationFields(draft));
    change.apply(record);
    change.attempt({
      ...base,
      outcome: "applied",
      reason: `${reason}: messages ${record.fromSeq}–${record.toSeq} left the model's view${record.childIds.length ? ", what their summaries said condensed into the truncation note" : ""}`,
      compactionId: record.id,
      messagesAfter: record.messagesAfter,
      tokensAfter: record.tokensAfter,
      durationMs: 0,
    });
  }
}
