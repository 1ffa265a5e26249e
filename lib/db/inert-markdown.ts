// The Markdown export is read in other programs (a code host, an editor's preview), many
// of which render raw HTML. Titles, prompts, messages and summaries are the user's and
// the model's text, so HTML in them is made text, as Strata's own view shows it: the `<`
// that opens it becomes `&lt;`, which a Markdown renderer shows as `<`. Inside code that
// would show as `&lt;`, so there the `<` is kept where the text's structure is known:
// short texts are parsed (CommonMark, micromark); the rest, and anything after a text
// whose end state is unclear, get every `<` that could open HTML escaped, code included —
// less faithful, never active, and linear in the text.
import { fromMarkdown } from "mdast-util-from-markdown";

/** Raw HTML (and autolinks) can only start with one of these; `a < b` is never HTML. */
const HTML_OPEN = /<(?=[A-Za-z/!?])/g;
const MAY_HOLD_HTML = /<[A-Za-z/!?]/;

// Parsing is exact but slow (up to about 150 ms per 10,000 characters of dense HTML, twice
// per text: escape, then check): bounded per text and per export, and an export yields
// to other requests after each parsed text.
export const PARSED_TEXT_CHARS = 10_000;
export const PARSED_DOCUMENT_CHARS = 100_000;

type Node = { type: string; children?: Node[]; position?: { start: { offset?: number }; end: { offset?: number } } };

/** Offsets of the raw HTML in `markdown`, in document order. */
function htmlRanges(markdown: string): [number, number][] {
  const ranges: [number, number][] = [];
  const stack: Node[] = [fromMarkdown(markdown) as Node];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (node.type === "html" && start !== undefined && end !== undefined) ranges.push([start, end]);
    if (node.children) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return ranges;
}

/** Every `<` that could open HTML, escaped: in code too. */
const escapeAll = (text: string) => text.replace(HTML_OPEN, "&lt;");

/**
 * The raw HTML of `markdown` escaped, code left alone; null when that is not enough
 * (escaping can change how the rest parses: a backtick inside an escaped tag may now
 * open a code span that hid a tag), so the caller escapes everything instead.
 */
function escapeParsed(markdown: string): string | null {
  let escaped = "";
  let at = 0;
  for (const [start, end] of htmlRanges(markdown)) {
    escaped += markdown.slice(at, start) + escapeAll(markdown.slice(start, end));
    at = end;
  }
  escaped += markdown.slice(at);
  return htmlRanges(escaped).length === 0 ? escaped : null;
}

// A fence line: up to three spaces, then three or more backticks or tildes (the rest may
// hold any character: U+2028 ends no Markdown line).
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/s;

type FenceEnd = { kind: "closed" } | { kind: "open"; closer: string } | { kind: "unclear" };

/**
 * Whether HTML-free Markdown leaves a fenced code block open at its end (the next text
 * would then start inside it). Exact for fences at the start of a line; a fence indented
 * by one to three spaces may belong to a list item, which this does not follow: unclear.
 */
function fenceAtEnd(markdown: string): FenceEnd {
  let open: { char: string; length: number } | null = null;
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    const fence = FENCE.exec(line);
    if (!fence) continue;
    const [, indent = "", run = "", rest = ""] = fence;
    if (open) {
      // A closing fence is followed by spaces and tabs only (not any Unicode space).
      if (run[0] === open.char && run.length >= open.length && /^[ \t]*$/.test(rest)) open = null;
      continue;
    }
    // An info string after backticks may not hold a backtick: that line is text.
    if (run[0] === "`" && rest.includes("`")) continue;
    if (indent) return { kind: "unclear" };
    open = { char: run[0]!, length: run.length };
  }
  return open ? { kind: "open", closer: open.char.repeat(open.length) } : { kind: "closed" };
}

/**
 * Makes the texts of one Markdown document inert, in document order. Each text is read
 * as starting outside any code block: a text that leaves a fence open gets it closed,
 * and after one whose end is unclear every later text is escaped whole.
 */
export class InertMarkdown {
  private parseBudget = PARSED_DOCUMENT_CHARS;
  private clear = true;
  /** Whether the last text was parsed: the slow case, after which a caller may yield. */
  parsed = false;

  text(markdown: string): string {
    let inert = markdown;
    this.parsed = false;
    if (MAY_HOLD_HTML.test(markdown)) {
      const parsed = this.clear && markdown.length <= Math.min(PARSED_TEXT_CHARS, this.parseBudget) ? this.parse(markdown) : null;
      inert = parsed ?? escapeAll(markdown);
    }
    if (!this.clear) return inert;
    const end = fenceAtEnd(inert);
    if (end.kind === "unclear") this.clear = false;
    return end.kind === "open" ? `${inert}\n${end.closer}` : inert;
  }

  private parse(markdown: string): string | null {
    this.parseBudget -= markdown.length;
    this.parsed = true;
    return escapeParsed(markdown);
  }
}

/** Plain text (a title) as one line of Markdown: shown as written, never as HTML or an entity. */
export function plainLine(text: string): string {
  // From the start of a run of spaces only: from each space of a long run it was quadratic.
  return text.replace(/(?<!\s)\s*[\r\n]+\s*/g, " ").replaceAll("&", "&amp;").replaceAll("<", "&lt;");
}

/** Plain text (a model name, a tool call) as an inline code span on one line. */
export function codeSpan(text: string): string {
  const line = text.replace(/[\r\n]+/g, " ");
  const longestRun = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longestRun + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}
