import { overlapping } from "./apply";
import type { CompactionRecord, Transcript, TranscriptMessage } from "./types";

/**
 * Which messages a level-1 compaction takes. Always a contiguous run of the oldest
 * summarizable (active, non-pinned) messages, so that every seq stays either active or
 * under exactly one active compaction.
 */
export type SelectionRules = {
  /** The newest `keep` summarizable messages stay... */
  keep: number;
  /** ...as long as together they cost at most this much (our count). */
  keepTokens?: number;
  /**
   * Never take the last user message or anything after it: the model call being
   * prepared answers that turn and needs it whole (tool results included).
   */
  protectLastUser: boolean;
  maxCount?: number;
  /** Stop once this many tokens are selected (the tokens trigger's aim). */
  enoughTokens?: number;
  /** What the summary model can read in one prompt. */
  maxInputTokens?: number;
};

export type Selection = { messages: TranscriptMessage[]; fromSeq: number; toSeq: number; tokens: number };

/**
 * Seqs compression must leave as they are: pinned messages, messages kept beside a
 * compaction (inside its range but not replaced by it), and the other half of any
 * tool call/result pair with one of those — the API rejects a call without its
 * results, so a pair is held or taken whole.
 */
export function heldSeqs(transcript: Transcript): Set<number> {
  const held = new Set<number>();
  const ranges = transcript.compactions;
  let range = 0;
  for (const message of transcript.messages) {
    while (range < ranges.length && ranges[range]!.toSeq < message.seq) range++;
    const inside = range < ranges.length && ranges[range]!.fromSeq <= message.seq;
    if (message.pinned || inside) held.add(message.seq);
  }
  if (held.size === 0) return held;
  const callOwner = new Map<string, TranscriptMessage>();
  for (const message of transcript.messages) {
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) callOwner.set(call.id, message);
  }
  for (const message of transcript.messages) {
    if (message.role !== "tool") continue;
    const owner = callOwner.get(message.toolCallId);
    if (!owner) continue;
    if (held.has(message.seq)) held.add(owner.seq);
  }
  for (const message of transcript.messages) {
    if (message.role !== "tool") continue;
    const owner = callOwner.get(message.toolCallId);
    if (owner && held.has(owner.seq)) held.add(message.seq);
  }
  return held;
}

export function summarizable(transcript: Transcript): TranscriptMessage[] {
  const held = heldSeqs(transcript);
  return held.size === 0 ? transcript.messages : transcript.messages.filter((message) => !held.has(message.seq));
}

/**
 * A cut after `messages[index]` is safe when it does
 * not leave a tool call and its results on different sides.
 */
export function isSafeCut(messages: TranscriptMessage[], index: number): boolean {
  const before = messages[index];
  const after = messages[index + 1];
  if (!before) return false;
  if (before.role === "assistant" && before.toolCalls?.length) return false;
  return after?.role !== "tool";
}

function compactionBetween(compactions: CompactionRecord[], fromSeq: number, toSeq: number): boolean {
  return compactions.some((compaction) => compaction.fromSeq > fromSeq && compaction.fromSeq < toSeq);
}

/** Runs of candidate indexes, broken by compactions and by the protected message. */
function candidateRuns(transcript: Transcript, messages: TranscriptMessage[], rules: SelectionRules): number[][] {
  let tailStart = Math.max(0, messages.length - rules.keep);
  if (rules.keepTokens !== undefined) {
    let kept = messages.slice(tailStart).reduce((sum, message) => sum + message.tokens, 0);
    while (tailStart < messages.length && kept > rules.keepTokens) kept -= messages[tailStart++]!.tokens;
  }
  if (rules.protectLastUser) {
    const lastUser = transcript.messages.findLast((message) => message.role === "user");
    if (lastUser) tailStart = Math.min(tailStart, messages.findIndex((message) => message.seq >= lastUser.seq));
    if (tailStart < 0) tailStart = messages.length;
  }
  const runs: number[][] = [];
  let run: number[] = [];
  for (let index = 0; index < tailStart; index++) {
    const previous = run[run.length - 1];
    const broken = previous !== undefined && compactionBetween(transcript.compactions, messages[previous]!.seq, messages[index]!.seq);
    if (broken && run.length > 0) {
      runs.push(run);
      run = [];
    }
    run.push(index);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** The prefix of `run` the rules ask for, ending at a safe cut (earlier if possible, else later). */
function prefixOf(run: number[], messages: TranscriptMessage[], rules: SelectionRules): number[] | null {
  let end = 0;
  let tokens = 0;
  for (; end < run.length; end++) {
    const message = messages[run[end]!]!;
    if (rules.maxCount !== undefined && end >= rules.maxCount) break;
    if (rules.maxInputTokens !== undefined && end > 0 && tokens + message.tokens > rules.maxInputTokens) break;
    if (rules.enoughTokens !== undefined && end > 0 && tokens >= rules.enoughTokens) break;
    tokens += message.tokens;
  }
  for (let cut = end; cut >= 1; cut--) {
    if (isSafeCut(messages, run[cut - 1]!)) return run.slice(0, cut);
  }
  for (let cut = end + 1; cut <= run.length; cut++) {
    if (isSafeCut(messages, run[cut - 1]!)) return run.slice(0, cut);
  }
  return null;
}

export function selectRange(transcript: Transcript, rules: SelectionRules): Selection | null {
  const messages = summarizable(transcript);
  for (const run of candidateRuns(transcript, messages, rules)) {
    const picked = prefixOf(run, messages, rules);
    if (!picked) continue;
    const selected = picked.map((index) => messages[index]!);
    return {
      messages: selected,
      fromSeq: selected[0]!.seq,
      toSeq: selected[selected.length - 1]!.seq,
      tokens: selected.reduce((sum, message) => sum + message.tokens, 0),
    };
  }
  return null;
}

/**
 * The range a provided summary replaces: the explicit one grown to whole compactions,
 * or everything but the newest `keep` messages (summaries included, since the writer
 * saw them), never starting the kept tail on a tool result.
 */
export function providedRange(
  transcript: Transcript,
  keep: number,
  from?: number,
  to?: number,
  protectLastUser = false,
): { fromSeq: number; toSeq: number } | null {
  const messages = summarizable(transcript);
  let fromSeq = from ?? -Infinity;
  let toSeq = to ?? Infinity;
  if (from === undefined && to === undefined) {
    let tailStart = Math.max(0, messages.length - keep);
    while (tailStart > 0 && tailStart < messages.length && messages[tailStart]!.role === "tool") tailStart--;
    toSeq = (messages[tailStart]?.seq ?? Infinity) - 1;
  }
  if (protectLastUser) {
    // The chat model calls compress_context while answering: the question it answers stays.
    const lastUser = transcript.messages.findLast((message) => message.role === "user");
    if (lastUser) toSeq = Math.min(toSeq, lastUser.seq - 1);
  }
  for (let grown = true; grown; ) {
    grown = false;
    for (const c of overlapping(transcript, fromSeq, toSeq)) {
      if (c.fromSeq < fromSeq || c.toSeq > toSeq) {
        fromSeq = Math.min(fromSeq, c.fromSeq);
        toSeq = Math.max(toSeq, c.toSeq);
        grown = true;
      }
    }
  }
  const spans = [
    ...messages.filter((m) => m.seq >= fromSeq && m.seq <= toSeq).map((m) => [m.seq, m.seq] as const),
    ...transcript.compactions.filter((c) => c.fromSeq >= fromSeq && c.toSeq <= toSeq).map((c) => [c.fromSeq, c.toSeq] as const),
  ];
  if (spans.length === 0) return null;
  return { fromSeq: Math.min(...spans.map(([start]) => start)), toSeq: Math.max(...spans.map(([, end]) => end)) };
}
