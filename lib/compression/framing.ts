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

/** How the instruction of a request that shares the chat prefix names a message of it. */
export type SharedAnchor = { role: string; text: string } | { role: "assistant"; calls: string };

function describe(anchor: SharedAnchor): string {
  if ("calls" in anchor) return `assistant message that calls ${anchor.calls}`;
  if (anchor.role === "summary") return `summary headed "${anchor.text}"`;
  if (anchor.role === "tool") return "tool result";
  return `${anchor.role} message that begins "${anchor.text}"`;
}

// The material is named by counting (which a server can check) and by its first and
// last message (which a reading model can find); the conversation's own numbers are not
// in the chat request, so "messages 27–38" alone would name nothing.
const place = (count: number, noun: string, after: number) =>
  `the ${count} ${noun} above that end ${after === 0 ? "right before this one" : `${after} message${after === 1 ? "" : "s"} before this one`}`;
const stay = (after: number) => (after === 0 ? "" : " The messages after them stay in the conversation as they are: leave them out.");
const TEXT_ONLY = "Reply with the summary as text; do not call a tool.";

type Named = { count: number; after: number; first: SharedAnchor; last: SharedAnchor };

/** The first line of a summary request that shares the chat request's prefix: what to summarize. */
export function sharedRangeLine(named: Named & { fromSeq: number; toSeq: number; folded: readonly { fromSeq: number; toSeq: number; level: number }[] }): string {
  const folded = named.folded.length ? `, with the earlier ${named.folded.length === 1 ? "summary" : "summaries"} ${named.folded.map((c) => summaryLabel(c.fromSeq, c.toSeq, c.level)).join(", ")} before them` : "";
  return `Summarize ${place(named.count, "messages", named.after)}: messages ${named.fromSeq}–${named.toSeq} of the conversation${folded}, from the ${describe(named.first)} to the ${describe(named.last)}. Your summary replaces them.${stay(named.after)} ${TEXT_ONLY}`;
}

/** The first line of a merge request that shares the chat request's prefix. */
export function sharedMergeLine(named: Named & { children: readonly { fromSeq: number; toSeq: number; level: number }[] }): string {
  const labels = named.children.map((c) => summaryLabel(c.fromSeq, c.toSeq, c.level)).join(", ");
  return `Merge ${place(named.count, "summaries", named.after)} (${labels}) into one summary that replaces them.${stay(named.after)} ${TEXT_ONLY}`;
}

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
  /^(?:summarize|merge) the \d+ (?:messages|summaries) above that end\b/i,
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
