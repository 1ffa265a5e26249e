import { MAX_BLOCKS_PER_LEVEL, MAX_SUMMARY_BLOCKS, type ContextBudget } from "./budget";
import { formatCount, renderedCompactionTokens } from "./render";
import { summarizable } from "./selection";
import type { CompactionRecord, TokenCounter, Transcript } from "./types";

export type MergePlan = { level: number; children: CompactionRecord[]; reason: string };

/**
 * Summaries of summaries keep the summary part of the context bounded: every summary
 * costs what it costs in the request (its rendering), and neither one level nor all
 * of them together may outgrow their share of the window or their number of blocks.
 * The oldest material is merged first, so detail fades with age.
 */
export function planMerge(transcript: Transcript, budget: ContextBudget, tokens: TokenCounter): MergePlan | null {
  const summaries = transcript.compactions.filter((c) => c.kind === "summary");
  if (summaries.length < 2) return null;
  const cost = (c: CompactionRecord) => renderedCompactionTokens(c, tokens);
  const free = new Set(summarizable(transcript).map((m) => m.seq));
  const levels = [...new Set(summaries.map((c) => c.level))].sort((a, b) => a - b);

  for (const level of levels) {
    const ofLevel = summaries.filter((c) => c.level === level);
    const used = ofLevel.reduce((sum, c) => sum + cost(c), 0);
    if (used <= budget.levelBudgetTokens && ofLevel.length <= MAX_BLOCKS_PER_LEVEL) continue;
    // The whole run goes at once: one call now instead of another merge soon.
    const run = oldestRun(transcript, free, (c) => c.kind === "summary" && c.level === level, cost, { tokens: Infinity, blocks: Infinity });
    if (run) {
      const why =
        used > budget.levelBudgetTokens
          ? `level ${level} summaries cost ${formatCount(used)} tokens (budget ${formatCount(budget.levelBudgetTokens)})`
          : `${ofLevel.length} level ${level} summaries (at most ${MAX_BLOCKS_PER_LEVEL})`;
      return { level: level + 1, children: run, reason: `${why}: merging ${run.length} into level ${level + 1}` };
    }
  }

  const total = summaries.reduce((sum, c) => sum + cost(c), 0);
  if (total <= budget.summaryBudgetTokens && summaries.length <= MAX_SUMMARY_BLOCKS) return null;
  const run = oldestRun(transcript, free, (c) => c.kind === "summary", cost, {
    tokens: total - budget.summaryBudgetTokens / 2,
    blocks: summaries.length - Math.floor(MAX_SUMMARY_BLOCKS / 2),
  });
  if (!run) return null;
  const level = Math.max(...run.map((c) => c.level)) + 1;
  const why =
    total > budget.summaryBudgetTokens
      ? `summaries cost ${formatCount(total)} tokens (budget ${formatCount(budget.summaryBudgetTokens)})`
      : `${summaries.length} summary blocks (at most ${MAX_SUMMARY_BLOCKS})`;
  return { level, children: run, reason: `${why}: merging the oldest ${run.length} into level ${level}` };
}

/**
 * When the new summary would push level 1 (or all summaries) over budget, the
 * summaries right before the selection are folded into it: one call writes one summary
 * of them and the new messages, a level above them, instead of a summary now and a
 * merge right after. Level 1 overflowing folds the level-1 run; all summaries
 * overflowing folds as few of the newest summaries as it takes to fit again.
 */
export function planFold(
  transcript: Transcript,
  selection: { fromSeq: number },
  budget: ContextBudget,
  tokens: TokenCounter,
): CompactionRecord[] {
  const summaries = transcript.compactions.filter((c) => c.kind === "summary");
  if (summaries.length === 0) return [];
  const cost = (c: CompactionRecord) => renderedCompactionTokens(c, tokens);
  const expected = Math.round(budget.summaryMaxTokens / 2);
  const levelOne = summaries.filter((c) => c.level === 1);
  const levelOneFull =
    levelOne.length > 0 &&
    (levelOne.reduce((sum, c) => sum + cost(c), 0) + expected > budget.levelBudgetTokens || levelOne.length + 1 > MAX_BLOCKS_PER_LEVEL);
  const total = summaries.reduce((sum, c) => sum + cost(c), 0);
  const allFull = total + expected > budget.summaryBudgetTokens || summaries.length + 1 > MAX_SUMMARY_BLOCKS;
  if (!levelOneFull && !allFull) return [];

  const free = new Set(summarizable(transcript).map((m) => m.seq));
  const freeBetween = (fromSeq: number, toSeq: number) => transcript.messages.some((m) => free.has(m.seq) && m.seq > fromSeq && m.seq < toSeq);
  const run: CompactionRecord[] = [];
  let next = selection.fromSeq;
  let freed = 0;
  for (const candidate of transcript.compactions.filter((c) => c.toSeq < selection.fromSeq).reverse()) {
    if (candidate.kind !== "summary" || freeBetween(candidate.toSeq, next)) break;
    const wanted = levelOneFull ? candidate.level === 1 : total - freed + expected > budget.summaryBudgetTokens || run.length === 0;
    if (!wanted) break;
    run.unshift(candidate);
    freed += cost(candidate);
    next = candidate.fromSeq;
  }
  return run;
}

/**
 * The oldest run of neighbouring compactions that `fits` (at least two), long enough
 * to free `enough.tokens` or remove `enough.blocks`. Neighbours merge only when no
 * summarizable message lies between them.
 */
function oldestRun(
  transcript: Transcript,
  free: Set<number>,
  fits: (c: CompactionRecord) => boolean,
  cost: (c: CompactionRecord) => number,
  enough: { tokens: number; blocks: number },
): CompactionRecord[] | null {
  const ordered = transcript.compactions;
  const between = (left: CompactionRecord, right: CompactionRecord) =>
    transcript.messages.some((m) => free.has(m.seq) && m.seq > left.toSeq && m.seq < right.fromSeq);
  for (let start = 0; start < ordered.length; start++) {
    const run: CompactionRecord[] = [];
    let taken = 0;
    for (let index = start; index < ordered.length; index++) {
      const candidate = ordered[index]!;
      const previous = run.at(-1);
      if (!fits(candidate)) break;
      if (previous && between(previous, candidate)) break;
      if (run.length >= 2 && taken >= enough.tokens && run.length - 1 >= enough.blocks) break;
      run.push(candidate);
      taken += cost(candidate);
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
      previous !== undefined &&
      !transcript.messages.some((m) => free.has(m.seq) && m.seq > previous.toSeq && m.seq < compaction.fromSeq);
    if (!joined && run.length > 0) {
      runs.push(run);
      run = [];
    }
    if (compaction.kind === "summary") run.push(compaction);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
