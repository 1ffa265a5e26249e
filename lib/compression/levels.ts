import { formatCount } from "./render";
import type { CompressionSettings } from "./settings";
import type { CompactionRecord, Transcript } from "./types";

export type MergePlan = { level: number; children: CompactionRecord[]; reason: string };

/** Two neighbouring compactions can merge only if no summarizable message lies between them. */
function adjacent(transcript: Transcript, left: CompactionRecord, right: CompactionRecord): boolean {
  return !transcript.messages.some((m) => !m.pinned && m.seq > left.toSeq && m.seq < right.fromSeq);
}

/**
 * REQ-3.7 / 003 §9.2 / seed 000's maxSummaryLength: when the summaries of one level
 * outgrow their budget, the oldest consecutive ones (at least two) are merged one
 * level up — enough of them to bring the level back to half its budget.
 */
export function planMerge(transcript: Transcript, settings: CompressionSettings): MergePlan | null {
  const summaries = transcript.compactions.filter((c) => c.kind === "summary");
  const levels = [...new Set(summaries.map((c) => c.level))].sort((a, b) => a - b);
  for (const level of levels) {
    const ofLevel = summaries.filter((c) => c.level === level);
    const used = ofLevel.reduce((sum, c) => sum + c.summaryTokens, 0);
    if (used <= settings.maxSummaryTokensPerLevel) continue;
    const excess = used - settings.maxSummaryTokensPerLevel / 2;
    const ordered = transcript.compactions;
    for (let start = 0; start < ordered.length; start++) {
      const run: CompactionRecord[] = [];
      let taken = 0;
      for (let index = start; index < ordered.length; index++) {
        const candidate = ordered[index]!;
        const previous = run[run.length - 1];
        if (candidate.kind !== "summary" || candidate.level !== level) break;
        if (previous && !adjacent(transcript, previous, candidate)) break;
        if (run.length >= 2 && taken >= excess) break;
        run.push(candidate);
        taken += candidate.summaryTokens;
      }
      if (run.length >= 2) {
        return {
          level: level + 1,
          children: run,
          reason: `level ${level} summaries use ${formatCount(used)} tokens (budget ${formatCount(settings.maxSummaryTokensPerLevel)}): merging ${run.length} into level ${level + 1}`,
        };
      }
    }
  }
  return null;
}
