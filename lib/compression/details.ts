import { attachCitation, withoutCitations } from "./citations";
import type { TokenCounter } from "./types";

// Summaries are where specifics die: a model keeps the gist and drops the port number,
// the file name, the person. These helpers find the specifics of a text (numbers,
// identifiers, paths, names) so that what a summary lost can be carried over verbatim,
// and so that deterministic shortening keeps the sentences that hold them.

const NUMBER = /\d[\d.,:/_-]*/g;
const IDENTIFIER = /\b[A-Za-z_][\w-]*(?:[A-Z0-9_][\w-]*|[-_][\w-]+)\b/g;
const PATH = /(?:[\w.-]*\/[\w./-]+|[\w-]+\.(?:[a-z]{1,4})\b)/g;
/**
 * Identifiers and paths are looked for within words of at most this length. Their
 * patterns may start anywhere and backtrack to the end of a run of word characters, so
 * over one 100,000-character run (a hash, a minified line, a pasted sequence) they took
 * seconds to minutes of the event loop; a term that long is no key term anyway.
 */
const MAX_TERM_CHARS = 200;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu;
const NOT_NAMES = new Set(["I", "I'm", "I've", "I'll", "I'd", "OK", "Ok"]);

/** The specific terms of one sentence: numbers, identifiers, paths, and capitalized words past its first. */
export function keyTermsOf(cited: string): string[] {
  // A cite's numbers say where a sentence came from, not what it says.
  const sentence = withoutCitations(cited);
  const terms = new Set<string>();
  for (const match of sentence.matchAll(NUMBER)) terms.add(match[0].replace(/[.,:/_-]+$/, ""));
  for (const word of sentence.split(/\s+/)) {
    if (word.length > MAX_TERM_CHARS) continue;
    for (const match of word.matchAll(IDENTIFIER)) if (/[A-Z0-9_-]/.test(match[0].slice(1))) terms.add(match[0]);
    for (const match of word.matchAll(PATH)) terms.add(match[0]);
  }
  const words = [...sentence.matchAll(WORD)].map((match) => match[0]);
  for (const word of words.slice(1)) if (/^\p{Lu}/u.test(word) && !NOT_NAMES.has(word)) terms.add(word);
  terms.delete("");
  return [...terms];
}

/** Lines, then sentences. */
export function sentencesOf(text: string): string[] {
  return text
    .split("\n")
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=\S)/))
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

export const DETAILS_LABEL = "Details kept verbatim:";

/** A text a summary was written from, and the cite of where it stands (a message's number, a summary's range). */
export type DetailSource = { text: string; cite?: string };

/**
 * Appends the sentences of `sources` whose specifics `summary` does not mention, as
 * many as fit in `roomTokens`, in their original order, each with its source's cite
 * (a sentence of a summary that cites already keeps its own). Returns the summary
 * unchanged when nothing is missing or nothing fits.
 */
export function carryDetails(summary: string, sources: DetailSource[], roomTokens: number, tokens: TokenCounter): { text: string; carried: number } {
  const label = tokens.count(DETAILS_LABEL) + 1;
  if (roomTokens <= label + 8) return { text: summary, carried: 0 };
  const seen = new Set<string>();
  const missing: string[] = [];
  for (const source of sources) {
    for (const sentence of sentencesOf(source.text)) {
      if (seen.has(sentence)) continue;
      seen.add(sentence);
      const terms = keyTermsOf(sentence);
      if (terms.length > 0 && terms.some((term) => !summary.includes(term))) missing.push(attachCitation(sentence, source.cite ?? ""));
    }
  }
  let room = roomTokens - label;
  const carried: string[] = [];
  for (const sentence of missing) {
    const cost = tokens.count(sentence) + 1;
    if (cost > room) continue;
    carried.push(sentence);
    room -= cost;
  }
  if (carried.length === 0) return { text: summary, carried: 0 };
  return { text: `${summary}\n${DETAILS_LABEL}\n${carried.join("\n")}`, carried: carried.length };
}
