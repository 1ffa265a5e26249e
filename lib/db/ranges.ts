// Sequence-range arithmetic shared by context loading and history expansion.
export type SeqRange = { fromSeq: number; toSeq: number };

/** Parts of `within` not covered by any of `covered` (which may overlap or be unsorted). */
export function uncoveredRanges(within: SeqRange, covered: SeqRange[]): SeqRange[] {
  const sorted = [...covered].sort((a, b) => a.fromSeq - b.fromSeq);
  const gaps: SeqRange[] = [];
  let next = within.fromSeq;
  for (const range of sorted) {
    if (range.toSeq < next) continue;
    if (range.fromSeq > within.toSeq) break;
    if (range.fromSeq > next) gaps.push({ fromSeq: next, toSeq: Math.min(range.fromSeq - 1, within.toSeq) });
    next = Math.max(next, range.toSeq + 1);
  }
  if (next <= within.toSeq) gaps.push({ fromSeq: next, toSeq: within.toSeq });
  return gaps;
}

/** Prisma `where` fragments selecting the seqs inside `ranges`. */
export function seqFilters(ranges: SeqRange[]): { seq: { gte: number; lte: number } }[] {
  return ranges.map((range) => ({ seq: { gte: range.fromSeq, lte: range.toSeq } }));
}
