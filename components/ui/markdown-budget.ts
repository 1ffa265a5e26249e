// Whether a text can be formatted as Markdown at a bounded cost. The parser (micromark,
// under react-markdown) has inputs whose cost grows much faster than their length, and
// it runs in the reader's browser on every message in view:
//   - a "]" looks back for its "[": 20,000 "x](y)" took 23 s, an unfenced JSON array
//     of 2,000 objects 12 s;
//   - emphasis delimiters are matched against each other: "_*" × 10,000 … took 11 s;
//   - every list item and quote level is a container re-checked on each line: 2,000
//     lines eight lists deep took 4 s, and 3,000 ">" in a row overflowed the stack, which
//     left the whole conversation unable to open.
// So a text with more of any of these than a few hundred milliseconds' worth is shown
// as written (its words, line breaks and spacing kept), not formatted. Ordinary messages,
// long ones included, stay far below every bound; what is inside a fenced code block
// costs the parser nothing and is not counted.

/** At most this many of each, outside fenced code (each bound alone: about 0.1–0.3 s of parsing at worst). */
export const MARKDOWN_BUDGET = {
  /** "[" and "]". */
  brackets: 2_000,
  /** "*", "~", and "_" not inside a word. */
  emphasis: 6_000,
  /** List items and quote levels at line starts, and indentation in steps of two columns, over all lines. */
  nesting: 2_000,
  /** The same on any one line (the parser recurses once per level). */
  depth: 64,
  /** "$" (each pair is a formula to typeset). */
  math: 2_000,
} as const;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const WORD = /[\p{L}\p{N}]/u;

/** Container levels a line opens: leading indentation (two columns a level) and its prefix of quote and list markers. */
function lineDepth(line: string): number {
  let index = 0;
  let columns = 0;
  let markers = 0;
  for (;;) {
    const char = line[index];
    if (char === " ") columns += 1;
    else if (char === "\t") columns += 4;
    else break;
    index++;
  }
  for (;;) {
    const rest = line.slice(index, index + 12);
    const marker = /^(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*/.exec(rest);
    if (!marker) break;
    markers++;
    index += marker[0].length;
  }
  return Math.floor(columns / 2) + markers;
}

/** True when formatting `text` as Markdown could take seconds (or overflow the stack): show it as written instead. */
export function overMarkdownBudget(text: string): boolean {
  let brackets = 0;
  let emphasis = 0;
  let nesting = 0;
  let math = 0;
  let fence: { char: string; length: number } | null = null;
  for (const line of text.split("\n")) {
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence) {
      if (fenceMark && fenceMark[0] === fence.char && fenceMark.length >= fence.length && line.trim() === fenceMark) fence = null;
      continue;
    }
    if (fenceMark) {
      fence = { char: fenceMark[0]!, length: fenceMark.length };
      continue;
    }
    const depth = lineDepth(line);
    nesting += depth;
    if (depth > MARKDOWN_BUDGET.depth || nesting > MARKDOWN_BUDGET.nesting) return true;
    for (let index = 0; index < line.length; index++) {
      const char = line[index];
      if (char === "[" || char === "]") brackets++;
      else if (char === "*" || char === "~") emphasis++;
      else if (char === "$") math++;
      else if (char === "_" && !(WORD.test(line[index - 1] ?? "") && WORD.test(line[index + 1] ?? ""))) emphasis++;
    }
    if (brackets > MARKDOWN_BUDGET.brackets || emphasis > MARKDOWN_BUDGET.emphasis || math > MARKDOWN_BUDGET.math) return true;
  }
  return false;
}
