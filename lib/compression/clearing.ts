import { formatCount } from "./render";
import type { RecordFields } from "./records";
import { clearedView, storedTokensOf } from "./tool-view";
import type { ClearingRecord, CompactionTrigger, TokenCounter, Transcript, TranscriptMessage } from "./types";

// Clearing old tool output: the cheap pass before any summary (docs/design.md, "Tool
// output"). The results of every tool round but the newest few become a note each; the
// calls stay, so the model still sees what it did and where to look again.

/**
 * What a clearing pass would do: the record to make, what it frees in the request and
 * what it makes a provider read again uncached (our count): the messages from the first
 * newly cleared result up to the newest round, which the previous request held as they were.
 */
export type ClearingPlan = {
  fields: Extract<RecordFields, { kind: "clearing" }>;
  freedTokens: number;
  resentTokens: number;
  /** Whether a result it newly clears came after the last user message: the model may still be working with it. */
  clearsThisTurn: boolean;
  cleared: number;
  keptRounds: number;
};

/**
 * Whether clearing this result makes the request smaller: not pinned, not cleared yet, and
 * longer than its note (a timestamp or an "ok" stays as it is).
 */
export function worthClearing(message: TranscriptMessage, tokens: TokenCounter): boolean {
  return message.role === "tool" && !message.pinned && message.shown?.as !== "cleared" && clearedView(message, tokens).tokens < message.tokens;
}

/**
 * Which rounds stay whole: at most `rounds` of the newest, and no more of them than fit
 * `maxTokens` of results as shown (the newest one always stays). A count alone keeps a
 * third of a small window in three cut results, more than summaries leave of anything
 * else, so clearing would then only delay them (docs/benchmarks.md, agent session).
 */
export type KeepRule = { rounds: number; maxTokens: number };

/** Fewest cleared rounds that make a tool session: a chat that called a tool or two is still a conversation. */
export const MIN_TOOL_SESSION_ROUNDS = 4;

/**
 * Whether the context in view is a tool session: more than half of the model's messages in
 * view (and MIN_TOOL_SESSION_ROUNDS of them) are tool calls whose results were cleared. A
 * chat whose every answer follows one tool call is still a conversation: its answers are half.
 * Automatic compression then runs from the tool-session threshold (contextBudget).
 */
export function isToolSession(transcript: Pick<Transcript, "messages" | "clearings">): boolean {
  const clearings = transcript.clearings ?? [];
  if (clearings.length === 0) return false;
  let replies = 0;
  let cleared = 0;
  for (const message of transcript.messages) {
    if (message.role !== "assistant") continue;
    replies++;
    if (message.toolCalls?.length && clearings.some((c) => c.fromSeq <= message.seq && message.seq <= c.toSeq)) cleared++;
  }
  return cleared >= MIN_TOOL_SESSION_ROUNDS && cleared * 2 > replies;
}

/** Index in `messages` of the first message of each tool round (an assistant message with calls). */
function roundStarts(messages: readonly TranscriptMessage[]): number[] {
  const starts: number[] = [];
  messages.forEach((message, index) => {
    if (message.role === "assistant" && message.toolCalls?.length) starts.push(index);
  });
  return starts;
}

/** How many of the newest rounds `keep` leaves whole. */
export function keptRounds(messages: readonly TranscriptMessage[], starts: readonly number[], keep: KeepRule): number {
  let kept = 0;
  let tokens = 0;
  for (let round = starts.length - 1; round >= 0 && kept < keep.rounds; round--) {
    const end = round + 1 < starts.length ? starts[round + 1]! : messages.length;
    const results = messages.slice(starts[round]!, end).reduce((sum, m) => sum + (m.role === "tool" ? m.tokens : 0), 0);
    if (kept > 0 && tokens + results > keep.maxTokens) break;
    kept++;
    tokens += results;
  }
  return kept;
}

/**
 * Clears every result of the rounds older than the newest kept ones (`keep`), pinned ones
 * excepted, all at once: each clearing moves where a provider's prefix cache stops
 * matching, so whether it is worth it is the caller's call (`freedTokens` against
 * `resentTokens`). Null when nothing new would be cleared. A clearing that overlaps an
 * earlier one absorbs it (one range).
 */
export function planClearing(transcript: Transcript, keep: KeepRule, trigger: CompactionTrigger, background: boolean, tokens: TokenCounter): ClearingPlan | null {
  const { messages } = transcript;
  const starts = roundStarts(messages);
  const keepRounds = keptRounds(messages, starts, keep);
  if (starts.length <= keepRounds) return null;
  const boundary = keepRounds === 0 ? messages.length : starts[starts.length - keepRounds]!;
  const older = messages.slice(0, boundary);
  const fresh = older.filter((m) => worthClearing(m, tokens));
  if (fresh.length === 0) return null;
  // The call of the first result opens the range, so a call and its result are never split by it.
  const callSeq = new Map<string, number>();
  for (const message of older) if (message.role === "assistant") for (const call of message.toolCalls ?? []) callSeq.set(call.id, message.seq);
  const first = fresh[0]!;
  let fromSeq = first.role === "tool" ? (callSeq.get(first.toolCallId) ?? first.seq) : first.seq;
  // To the last result of the older rounds (pinned or already cleared ones included), so no round is split either.
  let toSeq = older.findLast((m) => m.role === "tool")!.seq;
  const absorbed: ClearingRecord[] = [];
  // An earlier clearing that ends where this one starts (no result shown whole between) is
  // absorbed too: a round cleared at a time still makes one range, and one notice for people.
  const touches = (clearing: ClearingRecord) => !messages.some((m) => m.role === "tool" && m.seq > clearing.toSeq && m.seq < fromSeq);
  for (const clearing of [...(transcript.clearings ?? [])].sort((a, b) => b.toSeq - a.toSeq)) {
    if (clearing.fromSeq > toSeq || (clearing.toSeq < fromSeq && !touches(clearing))) continue;
    absorbed.push(clearing);
    fromSeq = Math.min(fromSeq, clearing.fromSeq);
    toSeq = Math.max(toSeq, clearing.toSeq);
  }
  const inRange = messages.filter((m) => m.role === "tool" && m.seq >= fromSeq && m.seq <= toSeq);
  const cleared = inRange.filter((m) => (m.role === "tool" && m.shown?.as === "cleared") || worthClearing(m, tokens));
  const storedTokens = cleared.reduce((sum, m) => sum + storedTokensOf(m), 0);
  const freedTokens = cleared.reduce((sum, m) => sum + m.tokens - (m.role === "tool" ? clearedView(m, tokens).tokens : m.tokens), 0);
  // The newest round came after the previous request, so it is read uncached either way.
  const clearedSet = new Set<TranscriptMessage>(cleared);
  const resentTokens = messages
    .slice(messages.indexOf(first), starts.at(-1))
    .reduce((sum, m) => sum + (m.role === "tool" && clearedSet.has(m) ? clearedView(m, tokens).tokens : m.tokens), 0);
  const count = `${cleared.length} tool result${cleared.length === 1 ? "" : "s"}`;
  return {
    cleared: cleared.length,
    keptRounds: keepRounds,
    freedTokens,
    resentTokens,
    clearsThisTurn: fresh.at(-1)!.seq > (messages.findLast((m) => m.role === "user")?.seq ?? 0),
    fields: {
      kind: "clearing",
      trigger,
      strategy: "clearing",
      level: 0,
      fromSeq,
      toSeq,
      summary: `${count} of messages ${fromSeq}–${toSeq} (${formatCount(storedTokens)} tokens) cleared from the model's view: each call stays, its output is a one-line note.`,
      title: `${count} cleared`,
      childIds: absorbed.map((c) => c.id),
      coveredMessageCount: cleared.length,
      coveredTokens: storedTokens,
      background,
      durationMs: 0,
    },
  };
}
