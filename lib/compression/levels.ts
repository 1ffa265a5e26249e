import { FAN_OUT, MAX_SUMMARY_BLOCKS, type ContextBudget } from "./budget";
import { compactionsInRequest, formatCount, renderedCompactionTokens } from "./render";
import { summarizable } from "./selection";
import type { CompactionRecord, TokenCounter, Transcript } from "./types";

export type MergePlan = { level: number; children: CompactionRecord[]; reason: string };

/** What keeps the summaries within their budget next: a merge one level up, or the oldest summary leaving the model's view. */
export type LevelPlan = ({ kind: "merge" } & MergePlan) | { kind: "set_aside"; compaction: CompactionRecord; reason: string };

/**
 * The highest level a merge may make for a conversation of `messages` messages:
 * ⌈log_F(messages ÷ keepRecent)⌉ + 1, at least 2. Every merge raises what it merges
 * by exactly one level, so this bounds the height of the tree and how often any fact
 * is summarized again (docs/design.md, "Levels: a tree of bounded height").
 */
export function levelCap(messages: number, keepRecent: number): number {
  const ratio = Math.max(1, messages) / Math.max(1, keepRecent);
  return Math.max(2, Math.ceil(Math.log(ratio) / Math.log(FAN_OUT) - 1e-9) + 1);
}

/** Summaries the model sees whole: the ones merges and folds may take. */
export function inViewSummaries(transcript: Transcript): CompactionRecord[] {
  return transcript.compactions.filter((c) => c.kind === "summary" && c.outOfView === undefined);
}

/**
 * Summaries of summaries keep the summary part of the context bounded, as a tree:
 * a merge takes at most FAN_OUT neighbouring summaries of ONE level and writes one a
 * level above them, and never above `cap`. A level with FAN_OUT summaries, or over its
 * budget, is merged first (lowest level first); when all summaries in view outgrow
 * their budget or their number of blocks, a run of one level is merged (lowest level
 * first: it sits after the older summaries, so the request keeps its prefix), and when
 * there is none, or its merge would have less room than the newest summary takes, the
 * oldest summary leaves the model's view. A summary is never merged with one of another
 * level: merging the oldest, largest summary into everything after it is the chain this
 * replaces.
 */
export function planMerge(transcript: Transcript, budget: ContextBudget, tokens: TokenCounter, cap: number): LevelPlan | null {
  const shown = inViewSummaries(transcript);
  const cost = (c: CompactionRecord) => renderedCompactionTokens(c, tokens);
  const free = new Set(summarizable(transcript).map((m) => m.seq));
  const mayClimb = (c: CompactionRecord) => c.kind === "summary" && c.outOfView === undefined && c.level + 1 <= cap;
  const levels = [...new Set(shown.map((c) => c.level))].sort((a, b) => a - b);

  for (const level of levels) {
    if (level + 1 > cap) continue;
    const ofLevel = shown.filter((c) => c.level === level);
    const used = ofLevel.reduce((sum, c) => sum + cost(c), 0);
    if (used <= budget.levelBudgetTokens && ofLevel.length < FAN_OUT) continue;
    const run = oldestRun(transcript, free, (c) => mayClimb(c) && c.level === level);
    if (run) {
      const why =
        used > budget.levelBudgetTokens
          ? `level ${level} summaries cost ${formatCount(used)} tokens (budget ${formatCount(budget.levelBudgetTokens)})`
          : `${ofLevel.length} level ${level} summaries (a level holds fewer than ${FAN_OUT})`;
      return { kind: "merge", level: level + 1, children: run, reason: `${why}: merging ${run.length} into level ${level + 1}` };
    }
  }

  const over = overBound(transcript, budget, tokens);
  if (!over) return null;
  // A merge for the whole budget must leave the summaries within it, so all it may write
  // is what the budget leaves beside everything else (stand-ins included). Less than the
  // newest summary takes, several summaries would have to shrink to below one: a
  // summarizer that writes up to its bound cannot, and made that call (and failed) at
  // every compaction. The oldest summary leaves the view instead, without a call.
  const total = summariesCost(transcript, tokens);
  const newest = shown.length > 0 ? cost(shown.at(-1)!) : 0;
  for (const level of levels) {
    const run = oldestRun(transcript, free, (c) => mayClimb(c) && c.level === level);
    if (!run) continue;
    const room = budget.summaryBudgetTokens - (total - run.reduce((sum, c) => sum + cost(c), 0));
    if (room >= newest) return { kind: "merge", level: level + 1, children: run, reason: `${over}: merging ${run.length} of level ${level} into level ${level + 1}` };
  }
  return planSetAside(transcript, budget, tokens, "no two neighbouring summaries of one level may merge into the room left");
}

/** Why the summaries in view are over their bound (tokens or blocks), or null when they are within it. */
function overBound(transcript: Transcript, budget: ContextBudget, tokens: TokenCounter): string | null {
  const shown = inViewSummaries(transcript);
  const total = summariesCost(transcript, tokens);
  if (total <= budget.summaryBudgetTokens && shown.length <= MAX_SUMMARY_BLOCKS) return null;
  return total > budget.summaryBudgetTokens
    ? `summaries cost ${formatCount(total)} tokens (budget ${formatCount(budget.summaryBudgetTokens)})`
    : `${shown.length} summary blocks (at most ${MAX_SUMMARY_BLOCKS})`;
}

/** What the summaries cost in the request: those in view, and the stand-ins of those out of it. */
function summariesCost(transcript: Transcript, tokens: TokenCounter): number {
  return compactionsInRequest(transcript.compactions)
    .filter((c) => c.kind === "summary")
    .reduce((sum, c) => sum + renderedCompactionTokens(c, tokens), 0);
}

/**
 * The oldest summary leaves the model's view when the summaries in view are over their
 * bound and cannot merge (`because`). The newest summary stays: it alone fits (a summary
 * is bounded by the level budget).
 */
export function planSetAside(transcript: Transcript, budget: ContextBudget, tokens: TokenCounter, because: string): LevelPlan | null {
  const over = overBound(transcript, budget, tokens);
  const shown = inViewSummaries(transcript);
  const oldest = shown[0];
  if (!over || !oldest || shown.length < 2) return null;
  return {
    kind: "set_aside",
    compaction: oldest,
    reason: `${over}, and ${because}: the summary of messages ${oldest.fromSeq}–${oldest.toSeq} (level ${oldest.level}) leaves the model's view`,
  };
}

/**
 * What the next compaction would set aside, set aside now when this one already
 * changes the request there. A merge writes a summary that is often the oldest in
 * view; when the next summary (as large as the one this pass wrote from messages, else
 * half its bound, as planFold takes it) would make
 * planMerge set exactly that summary aside, it would leave the view one compaction
 * later and the request would change a second time from the same early place —
 * everything after it read again uncached. Only a summary this pass's merges wrote
 * (`mergedIds`) leaves ahead of time: the request is new from there anyway; a summary
 * the model has already seen in its place keeps it until it must go. When the next
 * compaction would merge instead (and so keep that summary's content in view), nothing
 * leaves.
 */
export function planSetAsideAhead(
  transcript: Transcript,
  budget: ContextBudget,
  tokens: TokenCounter,
  cap: number,
  mergedIds: ReadonlySet<string>,
  nextTokens = Math.round(budget.summaryMaxTokens / 2),
): LevelPlan | null {
  const oldest = inViewSummaries(transcript)[0];
  const upcoming = summarizable(transcript)[0];
  if (!oldest || !mergedIds.has(oldest.id) || !upcoming) return null;
  const next: CompactionRecord = {
    ...oldest,
    id: `${oldest.id}:next`,
    level: 1,
    fromSeq: upcoming.seq,
    toSeq: upcoming.seq,
    summary: NEXT_SUMMARY,
    childIds: [],
    keptSeqs: [],
    summaryTokens: nextTokens,
  };
  delete next.title;
  delete next.outOfView;
  // The next summary's text is not written yet: it counts as the size it is expected to
  // have, beside its label (left out, the plan saw room for a merge a dozen tokens short).
  const counting: TokenCounter = { count: (text) => (text.endsWith(NEXT_SUMMARY) ? tokens.count(text.slice(0, -NEXT_SUMMARY.length)) + nextTokens : tokens.count(text)) };
  const withNext: Transcript = {
    ...transcript,
    compactions: [...transcript.compactions, next].sort((a, b) => a.fromSeq - b.fromSeq),
    messages: transcript.messages.filter((m) => m.seq !== upcoming.seq),
  };
  const plan = planMerge(withNext, budget, counting, cap);
  if (plan?.kind !== "set_aside" || plan.compaction.id !== oldest.id) return null;
  return {
    kind: "set_aside",
    compaction: oldest,
    reason: `the next summary would make the summary of messages ${oldest.fromSeq}–${oldest.toSeq} (level ${oldest.level}) leave the model's view, and this merge already changes the request from there: it leaves now`,
  };
}

const NEXT_SUMMARY = "\u0000next summary\u0000";

/**
 * When the new summary would make level 1 full (FAN_OUT blocks, or over its budget),
 * the level-1 summaries right before the selection (at most FAN_OUT − 1) are folded
 * into it: one call writes one level-2 summary of them and the new messages, instead
 * of a summary now and a merge right after. The new messages count as the fold's
 * FAN_OUT-th child; nothing above level 1 is ever folded.
 */
export function planFold(
  transcript: Transcript,
  selection: { fromSeq: number },
  budget: ContextBudget,
  tokens: TokenCounter,
): CompactionRecord[] {
  const levelOne = inViewSummaries(transcript).filter((c) => c.level === 1);
  if (levelOne.length === 0) return [];
  const cost = (c: CompactionRecord) => renderedCompactionTokens(c, tokens);
  const expected = Math.round(budget.summaryMaxTokens / 2);
  const full = levelOne.reduce((sum, c) => sum + cost(c), 0) + expected > budget.levelBudgetTokens || levelOne.length + 1 >= FAN_OUT;
  if (!full) return [];

  const free = new Set(summarizable(transcript).map((m) => m.seq));
  const freeBetween = (fromSeq: number, toSeq: number) => transcript.messages.some((m) => free.has(m.seq) && m.seq > fromSeq && m.seq < toSeq);
  const run: CompactionRecord[] = [];
  let next = selection.fromSeq;
  for (const candidate of transcript.compactions.filter((c) => c.toSeq < selection.fromSeq).reverse()) {
    if (candidate.kind !== "summary" || candidate.outOfView !== undefined || candidate.level !== 1 || freeBetween(candidate.toSeq, next)) break;
    if (run.length >= FAN_OUT - 1) break;
    run.unshift(candidate);
    next = candidate.fromSeq;
  }
  return run;
}

/**
 * The oldest run of neighbouring compactions that `fits`, at least two and at most
 * FAN_OUT. Neighbours merge only when no summarizable message lies between them.
 */
function oldestRun(transcript: Transcript, free: Set<number>, fits: (c: CompactionRecord) => boolean): CompactionRecord[] | null {
  const ordered = transcript.compactions;
  const between = (left: CompactionRecord, right: CompactionRecord) =>
    transcript.messages.some((m) => free.has(m.seq) && m.seq > left.toSeq && m.seq < right.fromSeq);
  for (let start = 0; start < ordered.length; start++) {
    const run: CompactionRecord[] = [];
    for (let index = start; index < ordered.length && run.length < FAN_OUT; index++) {
      const candidate = ordered[index]!;
      const previous = run.at(-1);
      if (!fits(candidate)) break;
      if (previous && between(previous, candidate)) break;
      run.push(candidate);
    }
    if (run.length >= 2) return run;
  }
  return null;
}

/** Runs of neighbouring summaries (no summarizable message between them), oldest first. */
export function summaryRuns(transcript: Transcript): CompactionRecord[][] {
  const free = new Set(summarizable(transcript).map((m) => m.seq));
  const runs: CompactionRecord[][] = [];
  let run: CompactionRecord[] = [];
  for (const compaction of transcript.compactions) {
    const previous = run.at(-1);
    const joined =
      compaction.kind === "summary" &&
      compaction.outOfView === undefined &&
      previous !== undefined &&
      !transcript.messages.some((m) => free.has(m.seq) && m.seq > previous.toSeq && m.seq < compaction.fromSeq);
    if (!joined && run.length > 0) {
      runs.push(run);
      run = [];
    }
    if (compaction.kind === "summary" && compaction.outOfView === undefined) run.push(compaction);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
