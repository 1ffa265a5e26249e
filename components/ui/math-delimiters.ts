// LaTeX's own delimiters, as models write them: `\(…\)` inline and `\[…\]` display.
// remark-math only knows dollars, and Markdown reads `\(` as an escaped "(" (eating the
// backslash), so they are rewritten to dollars before parsing — never inside code, where
// they are text someone wants to see as written, nor inside math already in dollars
// (`\\[2pt]` there is a LaTeX line break with spacing, not a delimiter).

const FENCE = String.raw`^[ \t]*(?:>[ \t]*)*(?<fence>\`{3,}|~{3,})[^\n]*(?:\n[\s\S]*?(?:\n[ \t]*(?:>[ \t]*)*\k<fence>[\`~]*[ \t]*(?=\n|$)|(?![\s\S]))|(?![\s\S]))`;
/** Fenced code blocks: left exactly as written. */
const FENCES = new RegExp(`(${FENCE})`, "m");
/** Fenced code, code spans and `$$…$$` math: no delimiter inside them is converted. */
const PROTECTED = new RegExp(`(${FENCE}|(?<ticks>\`+)[\\s\\S]*?[^\`]\\k<ticks>(?!\`)|\\$\\$[\\s\\S]*?\\$\\$)`, "m");

/** Alternating unprotected text (even indices) and parts matched by `pattern` (odd indices). */
function split(text: string, pattern: RegExp): string[] {
  const parts: string[] = [];
  let rest = text;
  for (let match = pattern.exec(rest); match; match = pattern.exec(rest)) {
    const end = match.index + Math.max(match[0].length, 1);
    parts.push(rest.slice(0, match.index), rest.slice(match.index, end));
    rest = rest.slice(end);
  }
  parts.push(rest);
  return parts;
}

const mapProse = (text: string, pattern: RegExp, convert: (prose: string) => string) =>
  split(text, pattern)
    .map((part, index) => (index % 2 === 1 ? part : convert(part)))
    .join("");

/** The whitespace (and quote markers) a line starts with, when `offset` is preceded by nothing else on its line. */
function indentationBefore(text: string, offset: number): string | null {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const lead = text.slice(lineStart, offset);
  return /^[ \t]*(?:>[ \t]*)*$/.test(lead) ? lead : null;
}

function convertProse(prose: string): string {
  return prose
    .replace(/(?<!\\)\\\[([\s\S]+?)(?<!\\)\\\]/g, (match, inner: string, offset: number) => {
      const math = inner.trim();
      const lead = indentationBefore(prose, offset);
      if (!inner.includes("\n")) {
        // Mid-sentence, "\[note\]" is more likely Markdown's escaped brackets than display math.
        return lead === null ? match : `$$${math}$$`;
      }
      // Written over several lines: a math block, indented like its line (a list item).
      const indent = lead ?? "";
      const body = math
        .split("\n")
        .map((line) => `${indent}${line.trim()}`)
        .join("\n");
      const after = prose.charAt(offset + match.length);
      return `${lead === null ? "\n" : ""}$$\n${body}\n${indent}$$${after && after !== "\n" ? "\n" : ""}`;
    })
    .replace(/(?<!\\)\\\(([^\n]+?)(?<!\\)\\\)/g, (_, inner: string) => `$${inner.trim()}$`);
}

/** A line that holds nothing but one `$$…$$` becomes a math block, keeping its indentation. */
function displayMathLines(text: string): string {
  return text.replace(
    /^([ \t]*(?:>[ \t]*)*)\$\$([^\n$]+?)\$\$[ \t]*$/gm,
    (_, lead: string, inner: string) => `${lead}$$\n${lead}${inner.trim()}\n${lead}$$`,
  );
}

/**
 * `\[…\]` and `\(…\)` outside code become `$$…$$` and `$…$`, and a `$$…$$` alone on its
 * line becomes a math block (remark-math reads a one-line `$$x$$` as inline math).
 * An unpaired delimiter (a reply still streaming, a literal "\(") stays as written.
 */
export function normalizeMathDelimiters(text: string): string {
  if (!/\\[[(]|\$\$/.test(text)) return text;
  return mapProse(mapProse(text, PROTECTED, convertProse), FENCES, displayMathLines);
}
