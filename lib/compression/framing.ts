// The words the engine puts around the material of a summary request: headers naming
// the range, introductions, separators, the labels of earlier summaries. They are
// built here, and only here, so that what a model copied of them can be recognised
// and kept out of the summary it wrote (see withoutFraming).

export const CONTEXT_INTRO = "Earlier context, already summarized (for reference, do not repeat it):";
export const FOLD_INTRO =
  "Earlier summaries, oldest first. Your summary replaces them together with the conversation after them, so carry over what still matters:";
export const MERGE_INTRO = "Summaries to merge, oldest first:";
export const SEPARATOR = "---";
/** What a summary that kept nothing says instead of the framing its model copied. */
export const NOTHING_KEPT = "[the summary model kept nothing from this part of the conversation]";

export const conversationHeader = (fromSeq: number, toSeq: number) => `Conversation to summarize (messages ${fromSeq}–${toSeq}):`;
export const turnHeader = (fromSeq: number, toSeq: number) => `Turn (messages ${fromSeq}–${toSeq}):`;
export const summaryLabel = (fromSeq: number, toSeq: number, level: number) => `[Summary of messages ${fromSeq}–${toSeq} (level ${level})]`;

const RANGE = String.raw`\d[\d,]*\s*[–-]\s*\d[\d,]*`;
const FIXED = new Set([CONTEXT_INTRO, FOLD_INTRO, MERGE_INTRO, SEPARATOR, NOTHING_KEPT].map((line) => line.toLowerCase()));
// A model that writes one sentence a line copies an introduction as its sentences.
for (const intro of [CONTEXT_INTRO, FOLD_INTRO, MERGE_INTRO]) {
  for (const piece of intro.split(/(?<=[.!?])\s+/)) if (piece.length >= 15) FIXED.add(piece.toLowerCase());
}
const PATTERNS = [
  new RegExp(String.raw`^conversation to summarize \(messages ${RANGE}\):?$`, "i"),
  new RegExp(String.raw`^turn \(messages ${RANGE}\):?$`, "i"),
  new RegExp(String.raw`^\[summary of messages ${RANGE} \(level \d+\)\]$`, "i"),
];
/** A heading that only says "summary": the engine labels every summary itself. */
const SUMMARY_HEADING = /^\s*(?:#+\s*)?(?:\*\*)?summary(?:\*\*)?(?:\s*:(?:\*\*)?\s*|\s*$)/i;
/** Markdown a model may dress a copied line in. */
const DRESSING = /^(?:#+\s*|\*\*)|\*\*$/g;

/** Whether `line` is (a copy of) the engine's own framing rather than something the conversation said. */
export function isFraming(line: string): boolean {
  const bare = line.trim().replace(DRESSING, "").trim();
  if (!bare) return false;
  return FIXED.has(bare.toLowerCase()) || PATTERNS.some((pattern) => pattern.test(bare));
}

/**
 * `text` without the request's framing that a model copied into it: a leading
 * "Summary:" heading (however often repeated) and every line that is a header, an
 * introduction, a separator or a summary label of the request. Summaries are read
 * again by every later fold and merge, so a copied header is copied again each time:
 * left in, they pile up and take the room of what the conversation said.
 */
export function withoutFraming(text: string): string {
  const kept: string[] = [];
  for (const line of text.split("\n")) {
    let rest = line;
    // Repeated headings ("Summary: Summary: …") come from summaries that were summarized again.
    if (kept.length === 0) while (rest.trim() && SUMMARY_HEADING.test(rest)) rest = rest.replace(SUMMARY_HEADING, "");
    if (isFraming(rest)) continue;
    if (rest.trim() || kept.length > 0) kept.push(rest);
  }
  return kept.join("\n").trim();
}
