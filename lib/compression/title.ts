import { withoutCitations } from "./citations";
import { DETAILS_LABEL, keyTermsOf, sentencesOf } from "./details";
import { isFraming } from "./framing";

// Every summary has a short title: what a collapsed block shows, and what stands for a
// summary once it has left the model's view. A summarizer is asked to write it as its
// first line; one that ignores the request (or a strategy without a model) gets one
// derived from the text, so a title never depends on the summarizer's obedience.

/** Longest title kept; longer ones are cut at a word. */
export const MAX_TITLE_CHARS = 60;

/** What the summarizer is asked for, as the first line of its reply. */
export const TITLE_INSTRUCTION =
  'Start your reply with one line "Title: " followed by the gist of this part of the conversation in at most 8 words (name what it is about, not that it is a summary); then write the summary.';
/** The same for a JSON reply. */
export const TITLE_FIELD_INSTRUCTION = 'Add a "title" field: the gist of this part of the conversation in at most 8 words.';

const TITLE_LINE = /^\s*(?:#+\s*)?(?:\*\*)?title(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.*?)\s*(?:\*\*)?\s*$/i;
/** Sentences that say only that something is a summary: every block would carry the same one. */
const GENERIC =
  /^(?:(?:detailed |brief |short )?summary\b|in (?:conclusion|summary)\b|the (?:conversation|user and (?:the )?assistant)\b|this (?:part|conversation)\b|\[)/i;

/** A title cut to MAX_TITLE_CHARS at a word, without trailing punctuation. */
export function clipTitle(text: string): string {
  const flat = text.replace(/\s+/g, " ").replace(/[*_`#]+/g, "").trim();
  const bare = flat.replace(/[\s.,;:!?–-]+$/, "");
  if (bare.length <= MAX_TITLE_CHARS) return bare;
  const cut = bare.slice(0, MAX_TITLE_CHARS + 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_TITLE_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, MAX_TITLE_CHARS)).replace(/[\s.,;:!?–-]+$/, "")}…`;
}

/**
 * The reply without its title line, and the title it gave (if its first non-empty
 * line is a `Title:` line with something after the colon).
 */
export function takeTitle(reply: string): { text: string; title?: string } {
  const lines = reply.split("\n");
  const first = lines.findIndex((line) => line.trim());
  if (first < 0) return { text: reply };
  const match = TITLE_LINE.exec(lines[first]!);
  if (!match) return { text: reply };
  const rest = [...lines.slice(0, first), ...lines.slice(first + 1)].join("\n");
  // A model that titles the part by the request's own header ("Title: Conversation to
  // summarize (messages 1–42)") names nothing: the summary gets a derived title instead.
  if (isFraming(match[1] ?? "")) return { text: rest };
  // A cite says where, not what: it is no part of a title (and clipTitle would leave "(261)").
  const title = clipTitle(withoutCitations(match[1] ?? ""));
  return title ? { text: rest, title } : { text: rest };
}

/**
 * A title for a summary that came without one: its first sentence of a few words with
 * specifics (a name, a number, an identifier) that is not a generic "summary of…" line,
 * else its first such sentence without specifics, else its first sentence.
 */
export function deriveTitle(summary: string): string {
  // List markers ("1.", "-", a digest's "(#3–#5)") say where, not what.
  const unmarked = summary
    .split("\n")
    .map((line) => line.replace(/^\s*(?:(?:[-*•]|\d+\.|\(#[^)]*\))\s+)+/, ""))
    .join("\n");
  const sentences = sentencesOf(unmarked)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence && sentence !== DETAILS_LABEL && !isFraming(sentence) && !/^[^:]{1,20}:$/.test(sentence));
  // A title names something in words: "<<reply 150>>" or "#12" has a number but says nothing.
  const worded = (sentence: string) => (sentence.match(/\p{L}{2,}/gu) ?? []).length >= 3;
  const specific = sentences.filter((sentence) => !GENERIC.test(sentence) && worded(sentence));
  const pick = specific.find((sentence) => keyTermsOf(sentence).length > 0) ?? specific[0] ?? sentences[0] ?? "";
  return clipTitle(withoutCitations(pick).replace(/^FACT\s+/, "")) || "Earlier conversation";
}
