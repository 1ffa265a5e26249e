import type { ContextBudget } from "./budget";
import { condense } from "./condense";
import { keyTermsOf, sentencesOf } from "./details";
import { extractFacts } from "./facts";
import { outOfViewLine } from "./render";
import type { CompactionRecord, TokenCounter } from "./types";

// A summary that leaves the model's view is not re-summarized: what stands for it in
// the request is a line with its range and title, and the sentences of it that carry
// specifics (names, numbers, FACT lines), verbatim, while a small fixed room lasts.
// Copied, not rewritten, so no fact is distorted by it; only left out for lack of room.

/** At most this many summaries out of view keep their line in the request (the most recently set aside). */
export const MAX_OUT_OF_VIEW_LINES = 8;
/** The specifics of summaries out of view take at most this share of the summary budget. */
const SPECIFICS_SHARE = 0.25;

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

const detailTokens = (text: string | undefined, tokens: TokenCounter) => {
  const rest = (text ?? "").split("\n").slice(1).join("\n");
  return rest ? tokens.count(rest) + 1 : 0;
};

/**
 * What the summaries out of view stand as once `leaving` leaves too. The ones already
 * out keep their text — the request changes only from where `leaving` stood — unless
 * room is needed: the newcomer gets at most half the room for specifics, the oldest
 * stand-ins give theirs back first (down to their line), and past
 * MAX_OUT_OF_VIEW_LINES the oldest keep nothing (but FACT lines, when they are kept).
 * Returns only the entries that change.
 */
export function standIns(
  compactions: readonly CompactionRecord[],
  leaving: CompactionRecord,
  budget: Pick<ContextBudget, "summaryBudgetTokens">,
  tokens: TokenCounter,
  preserveFacts: boolean,
): { id: string; text: string }[] {
  const room = Math.floor(budget.summaryBudgetTokens * SPECIFICS_SHARE);
  const earlier = compactions.filter((c) => c.kind === "summary" && c.outOfView !== undefined && c.id !== leaving.id);
  const texts = new Map(earlier.map((c) => [c.id, c.outOfView!] as const));
  const fresh = standIn(leaving, Math.floor(room / 2), tokens, preserveFacts);
  let used = detailTokens(fresh, tokens) + earlier.reduce((sum, c) => sum + detailTokens(texts.get(c.id), tokens), 0);
  for (const [index, compaction] of earlier.entries()) {
    const pastLines = earlier.length - index >= MAX_OUT_OF_VIEW_LINES;
    if (!pastLines && used <= room) break;
    const before = texts.get(compaction.id)!;
    const after = pastLines ? standIn(compaction, 0, tokens, preserveFacts).split("\n").slice(1).join("\n") : standIn(compaction, 0, tokens, preserveFacts);
    used -= detailTokens(before, tokens) - detailTokens(after, tokens);
    texts.set(compaction.id, after);
  }
  const changed = earlier.filter((c) => texts.get(c.id) !== c.outOfView).map((c) => ({ id: c.id, text: texts.get(c.id)! }));
  return [...changed, { id: leaving.id, text: fresh }];
}
