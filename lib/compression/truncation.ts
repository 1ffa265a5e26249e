import { replaceRange } from "./apply";
import { condense } from "./condense";
import { formatCount } from "./render";
import { summarizable } from "./selection";
import type { CompactionRecord, TokenCounter, Transcript, TranscriptMessage } from "./types";

/** A truncation record before ids, timing and context figures are filled in. */
export type TruncationDraft = Pick<
  CompactionRecord,
  "level" | "fromSeq" | "toSeq" | "summary" | "childIds" | "coveredMessageCount" | "coveredTokens"
> & { absorbsId?: string };

export type TruncationPlan = { drafts: TruncationDraft[]; transcript: Transcript };

export function truncationNote(messageCount: number, tokenCount: number, keptSummaries: boolean): string {
  const dropped = `${formatCount(messageCount)} messages, ${formatCount(tokenCount)} tokens dropped from the model's view to fit the context window`;
  return `[Earlier conversation truncated: ${dropped}${keptSummaries ? ". The specifics it held follow." : ""}]`;
}

type Item = { start: number; end: number; compaction?: CompactionRecord; message?: TranscriptMessage };

function draftOf(run: Item[], condensed: string): TruncationDraft {
  const covered = run.flatMap((item) => (item.compaction ? [item.compaction] : []));
  // The one active truncation before this cut (each cut takes everything before its tail)
  // is absorbed, not nested: its children move up to this one, so the height stays that
  // of the summaries below plus one, however many cuts a failing summarizer forces.
  const absorbed = covered.find((c) => c.kind === "truncation");
  const children = covered.filter((c) => c !== absorbed);
  const messages = run.flatMap((item) => (item.message ? [item.message] : []));
  const coveredMessageCount = messages.length + covered.reduce((sum, c) => sum + c.coveredMessageCount, 0);
  const coveredTokens = messages.reduce((sum, m) => sum + m.tokens, 0) + covered.reduce((sum, c) => sum + c.coveredTokens, 0);
  const note = truncationNote(coveredMessageCount, coveredTokens, condensed.length > 0);
  return {
    level: Math.max(1, absorbed?.level ?? 0, ...children.map((c) => c.level + 1)),
    fromSeq: Math.min(...run.map((item) => item.start)),
    toSeq: Math.max(...run.map((item) => item.end)),
    summary: condensed ? `${note}\n${condensed}` : note,
    childIds: children.map((c) => c.id),
    coveredMessageCount,
    coveredTokens,
    ...(absorbed ? { absorbsId: absorbed.id } : {}),
  };
}

/** Everything older than the kept tail leaves the model's view, as one run. */
function runBefore(transcript: Transcript, messages: TranscriptMessage[], tailStart: number): Item[] {
  const tailSeq = messages[tailStart]?.seq ?? Infinity;
  return [
    ...transcript.compactions.filter((c) => c.toSeq < tailSeq).map((c) => ({ start: c.fromSeq, end: c.toSeq, compaction: c })),
    ...messages.slice(0, tailStart).map((m) => ({ start: m.seq, end: m.seq, message: m })),
  ].sort((a, b) => a.start - b.start);
}

export type TruncationInput = {
  transcript: Transcript;
  keepRecentCount: number;
  /** The request of a candidate in the server's count, and the most it may be. */
  requestTokens: (candidate: Transcript) => number;
  hardLimit: number;
  /** At most this much of what the dropped summaries said is carried over. */
  maxCondensedTokens: number;
  tokens: TokenCounter;
  preserveFacts: boolean;
  toRecord: (draft: TruncationDraft) => CompactionRecord;
};

/**
 * Hard-limit truncation, the last resort: keep the system prompt, pinned
 * messages, the current turn (the last user message and what followed it) and the
 * newest keepRecentCount messages; if that still does not fit, keep fewer — never
 * less than the current turn (if that alone is too large, the request is cut in the
 * middle of its largest content instead). Summaries are not simply dropped: what they
 * said is condensed (extractively, no model) into the truncation record, in whatever
 * room is left. The tail never starts on a tool result (its call would be dropped).
 */
export function planTruncation(input: TruncationInput): TruncationPlan | null {
  const { transcript } = input;
  const messages = summarizable(transcript);
  const lastUser = transcript.messages.findLast((m) => m.role === "user");
  const currentTurn = lastUser ? messages.findIndex((m) => m.seq >= lastUser.seq) : -1;
  const latestTail = currentTurn >= 0 ? currentTurn : messages.length;
  let fallback: TruncationPlan | null = null;
  let previousTailStart = -1;
  for (let keep = Math.min(input.keepRecentCount, messages.length); keep >= 0; keep--) {
    let tailStart = Math.min(messages.length - keep, latestTail);
    while (tailStart > 0 && tailStart < messages.length && messages[tailStart]!.role === "tool") tailStart--;
    if (tailStart === previousTailStart) continue;
    previousTailStart = tailStart;
    const run = runBefore(transcript, messages, tailStart);
    if (run.length === 0) continue;
    const plain = planOf(transcript, draftOf(run, ""), input);
    fallback = plain;
    const room = input.hardLimit - input.requestTokens(plain.transcript);
    if (room < 0) continue;
    const learned = whatRunSaid(run);
    const condensedBudget = Math.min(input.maxCondensedTokens, Math.floor(room * 0.9) - 16);
    if (learned.length === 0 || condensedBudget < 16) return plain;
    const condensed = condense(learned, condensedBudget, input.tokens, input.preserveFacts);
    if (!condensed) return plain;
    const withSummaries = planOf(transcript, draftOf(run, condensed), input);
    return input.requestTokens(withSummaries.transcript) <= input.hardLimit ? withSummaries : plain;
  }
  // Nothing fits: the most that can go has gone; keep what the summaries said anyway,
  // in what their own share allows (the request is cut to fit after this).
  if (fallback) {
    const run = runBefore(transcript, messages, latestTail);
    const learned = whatRunSaid(run);
    const condensed = learned.length > 0 ? condense(learned, Math.min(input.maxCondensedTokens, 256), input.tokens, input.preserveFacts) : "";
    if (condensed) return planOf(transcript, draftOf(run, condensed), input);
  }
  return fallback;
}

/**
 * What the dropped part said, oldest first: its summaries and the text of its
 * messages (tool output aside). condense() keeps the specific sentences of it.
 */
function whatRunSaid(run: Item[]): string[] {
  return run.flatMap((item) => {
    if (item.compaction) return [item.compaction.summary];
    if (item.message && item.message.role !== "tool" && item.message.content.trim()) return [item.message.content];
    return [];
  });
}

function planOf(transcript: Transcript, draft: TruncationDraft, input: TruncationInput): TruncationPlan {
  return { drafts: [draft], transcript: replaceRange(transcript, input.toRecord(draft)) };
}
