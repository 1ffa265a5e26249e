// A search snippet is a few words cut from stored text, shown as plain text. Markdown's
// own marks there (a heading's #, **, backticks, a link's URL) are noise without the
// rendering they ask for, and a fragment can start or end in the middle of them.

const LINK = /!?\[([^\]\n]*)\]\([^)\s]*\)/g;
const LINE_MARK = /(^|\n)[ \t]*(?:#{1,6}[ \t]+|>[ \t]?)+/g;
const INLINE_MARK = /\*\*|__|~~|`+/g;

/** One piece of a snippet as it reads without Markdown: marks dropped, line breaks and runs of spaces as one space. */
export function plainSnippetText(text: string): string {
  return text.replace(LINK, "$1").replace(LINE_MARK, "$1").replace(INLINE_MARK, "").replace(/\s+/g, " ");
}
