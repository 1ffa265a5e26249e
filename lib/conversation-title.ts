// The title a conversation gets from its first message: what it says, not how it is
// written. A first message is often Markdown ("Here is code: ```python def fib(n)",
// "## Plan", "**urgent** fix"), and the sidebar showed its fences, hashes and stars.

/** Longest title taken from a message; the sidebar truncates further where it must. */
export const MESSAGE_TITLE_CHARS = 60;
/** Only the message's start can reach the title: the rest is never read (a message may be 100,000 characters). */
const READ_CHARS = 2_000;

/** The first MESSAGE_TITLE_CHARS characters of `content` as plain text (Markdown markers left out, whitespace folded). */
export function titleFromMessage(content: string): string {
  const plain = content
    .slice(0, READ_CHARS)
    // A fence and its language tag.
    .replace(/(?:`{3,}|~{3,})[^\s`~]*/g, " ")
    // Links and images: their text.
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
    // Markers at a line's start: headings, quotes, list items.
    .replace(/^[ \t]*(?:#{1,6}[ \t]+|>+[ \t]?|(?:[-*+]|\d{1,9}[.)])[ \t]+)+/gm, "")
    .replace(/`/g, "")
    // Emphasis at a word's edge; an underscore inside a word (snake_case) stays.
    .replace(/(^|[\s(])[*_~]+(?=\S)/g, "$1")
    .replace(/(?<=\S)[*_~]+(?=$|[\s).,;:!?])/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return Array.from(plain).slice(0, MESSAGE_TITLE_CHARS).join("").trim();
}
