import type { ContextBudget } from "./budget";
import { condense } from "./condense";
import { keyTermsOf, sentencesOf } from "./details";
import { extractFacts } from "./facts";
import { MESSAGE_OVERHEAD_TOKENS, outOfViewLine } from "./render";
import type { CompactionRecord, TokenCounter } from "./types";

// A summary that leaves the model's view is not re-summarized: what stands for it in
// the request is a line with its range and title, and the sentences of it that carry
// specifics (names, numbers, FACT lines), verbatim, while a small fixed room lasts.
// Copied, not rewritten, so no fact is distorted by it; only left out for lack of room.

/** The stand-ins of summaries out of view take at most this share of the summary budget. */
export const STAND_IN_SHARE = 0.75;

/** The sentences of a summary worth keeping once its prose is gone: those with specifics, not the engine's markers. */
function specificsOf(summary: string): string {
  return sentencesOf(summary)
    .filter((sentence) => !sentence.startsWith("[") && (keyTermsOf(sentence).length > 0 || extractFacts(sentence).length > 0))
    .join("\n");
}

/** The stand-in of a summary: its line, and at most `room` tokens of its specifics (FACT lines, when kept, whatever the room). */
function standIn(compaction: CompactionRecord, room: number, tokens: TokenCounter, preserveFacts: boolean): string {
  const line = outOfViewLine(compaction);
  // A title that is one of the sentences (a derived one usually is) is not said twice.
  const titled = (sentence: string) => line.endsWith(`] ${sentence.replace(/[.!?]+$/, "")}`);
  const specifics = specificsOf(compaction.summary)
    .split("\n")
    .filter((sentence) => !titled(sentence))
    .join("\n");
  const facts = preserveFacts ? extractFacts(specifics) : [];
  const prose = specifics
    .split("\n")
    .filter((sentence) => !facts.some((fact) => sentence.includes(fact)))
    .join("\n");
  const kept = room > 8 && prose ? condense([prose], room - 1, tokens, false) : "";
  return [line, kept, ...facts].filter(Boolean).join("\n");
}

/**
 * What the summaries out of view stand as once `leaving` leaves too. The ones already
 * out keep their text — the request changes only from where `leaving` stood — unless
 * room is needed: all stand-ins share a fixed part of the summary budget, the newcomer
 * takes at most half of it for its specifics, and when they outgrow it the oldest
 * stand-ins give back their specifics first (down to their line), then their line
 * (FACT lines, when they are kept, stay: they are the user's explicit record).
 * Returns only the entries that change.
 */
export function standIns(
  compactions: readonly CompactionRecord[],
  leaving: CompactionRecord,
  budget: Pick<ContextBudget, "summaryBudgetTokens">,
  tokens: TokenCounter,
  preserveFacts: boolean,
): { id: string; text: string }[] {
  const room = Math.floor(budget.summaryBudgetTokens * STAND_IN_SHARE);
  const earlier = compactions.filter((c) => c.kind === "summary" && c.outOfView !== undefined && c.id !== leaving.id);
  const texts = new Map(earlier.map((c) => [c.id, c.outOfView!] as const));
  const cost = (text: string | undefined) => (text ? tokens.count(text) + MESSAGE_OVERHEAD_TOKENS : 0);
  const fresh = standIn(leaving, Math.floor(room / 2), tokens, preserveFacts);
  let used = cost(fresh) + earlier.reduce((sum, c) => sum + cost(texts.get(c.id)), 0);
  const shrink = (to: (compaction: CompactionRecord) => string) => {
    for (const compaction of earlier) {
      if (used <= room) return;
      const before = texts.get(compaction.id)!;
      const after = to(compaction);
      if (cost(after) >= cost(before)) continue;
      used -= cost(before) - cost(after);
      texts.set(compaction.id, after);
    }
  };
  shrink((compaction) => standIn(compaction, 0, tokens, preserveFacts));
  shrink((compaction) => standIn(compaction, 0, tokens, preserveFacts).split("\n").slice(1).join("\n"));
  const changed = earlier.filter((c) => texts.get(c.id) !== c.outOfView).map((c) => ({ id: c.id, text: texts.get(c.id)! }));
  return [...changed, { id: leaving.id, text: fresh }];
}
