import { applyCompaction } from "./apply";
import { formatCount } from "./render";
import { summarizable } from "./selection";
import type { CompactionRecord, Transcript, TranscriptMessage } from "./types";

/** A truncation record before ids, timing and context figures are filled in. */
export type TruncationDraft = Pick<
  CompactionRecord,
  "level" | "fromSeq" | "toSeq" | "summary" | "childIds" | "coveredMessageCount" | "coveredTokens"
>;

export type TruncationPlan = { drafts: TruncationDraft[]; transcript: Transcript };

export function truncationNote(messageCount: number, tokenCount: number): string {
  return `[Earlier conversation truncated: ${formatCount(messageCount)} messages, ${formatCount(tokenCount)} tokens dropped from the model's view to fit the context window]`;
}

type Item = { start: number; end: number; compaction?: CompactionRecord; message?: TranscriptMessage };

function draftOf(run: Item[]): TruncationDraft {
  const children = run.flatMap((item) => (item.compaction ? [item.compaction] : []));
  const messages = run.flatMap((item) => (item.message ? [item.message] : []));
  const coveredMessageCount = messages.length + children.reduce((sum, c) => sum + c.coveredMessageCount, 0);
  const coveredTokens = messages.reduce((sum, m) => sum + m.tokens, 0) + children.reduce((sum, c) => sum + c.coveredTokens, 0);
  return {
    level: children.length > 0 ? Math.max(...children.map((c) => c.level)) + 1 : 1,
    fromSeq: Math.min(...run.map((item) => item.start)),
    toSeq: Math.max(...run.map((item) => item.end)),
    summary: truncationNote(coveredMessageCount, coveredTokens),
    childIds: children.map((c) => c.id),
    coveredMessageCount,
    coveredTokens,
  };
}

/**
 * Everything older than the kept tail is dropped, summaries included (REQ-3.4), except
 * the last user message, which splits the dropped part into at most two runs.
 */
function dropBefore(transcript: Transcript, messages: TranscriptMessage[], tailStart: number): TruncationDraft[] {
  const tailSeq = messages[tailStart]?.seq ?? Infinity;
  const lastUser = messages.findLast((m) => m.role === "user");
  const items: Item[] = [
    ...transcript.compactions.filter((c) => c.toSeq < tailSeq).map((c) => ({ start: c.fromSeq, end: c.toSeq, compaction: c })),
    ...messages.slice(0, tailStart).filter((m) => m !== lastUser).map((m) => ({ start: m.seq, end: m.seq, message: m })),
  ].sort((a, b) => a.start - b.start);
  const runs: Item[][] = [[], []];
  for (const item of items) runs[lastUser && item.start > lastUser.seq ? 1 : 0]!.push(item);
  return runs.filter((run) => run.length > 0).map(draftOf);
}

/**
 * REQ-3.4 hard-limit truncation: keep the system prompt, pinned messages, the last
 * user message and the newest keepRecentCount messages; if that still does not fit,
 * keep fewer. The tail never starts on a tool result (its call would be dropped).
 * `fits` says whether a candidate transcript's request is under the hard limit.
 */
export function planTruncation(
  transcript: Transcript,
  keepRecentCount: number,
  fits: (candidate: Transcript) => boolean,
  draftToRecord: (draft: TruncationDraft) => CompactionRecord,
): TruncationPlan | null {
  const messages = summarizable(transcript);
  let fallback: TruncationPlan | null = null;
  let previousTailStart = -1;
  for (let keep = Math.min(keepRecentCount, messages.length); keep >= 0; keep--) {
    let tailStart = messages.length - keep;
    while (tailStart > 0 && tailStart < messages.length && messages[tailStart]!.role === "tool") tailStart--;
    if (tailStart === previousTailStart) continue;
    previousTailStart = tailStart;
    const drafts = dropBefore(transcript, messages, tailStart);
    if (drafts.length === 0) continue;
    let candidate = transcript;
    for (const draft of drafts) candidate = applyCompaction(candidate, draftToRecord(draft));
    fallback = { drafts, transcript: candidate };
    if (fits(candidate)) return fallback;
  }
  return fallback;
}
