// A continuation is a new completion: the model starts it as its own text, not as the
// next characters of the stopped reply, so it rarely begins with the space the reply
// needs ("…the quick brown" + "fox jumps" would read "brownfox").

/** Text that attaches to what comes before it without a space. */
const ATTACHES_LEFT = /^[\s.,;:!?%)\]}»”’'"…\-–—/]/u;
/** Text after which the next word follows without a space. */
const OPENS_RIGHT = /[\s(\[{«“‘'"\-–—/]$/u;

/** What goes between a stopped reply and the first text of its continuation: a space, or nothing. */
export function continuationSeparator(partial: string, continuation: string): string {
  if (partial === "" || continuation === "") return "";
  if (OPENS_RIGHT.test(partial) || ATTACHES_LEFT.test(continuation)) return "";
  // A word, a number or Markdown emphasis starting after a letter, a digit or sentence punctuation.
  return /^[\p{L}\p{N}*_`[(]/u.test(continuation) && /[\p{L}\p{N}.,;:!?)\]*_`]$/u.test(partial) ? " " : "";
}
