// Summaries cite the messages a statement came from: "(#12)", "(#12–#15)", "(#3, #7)".
// Message numbers are permanent, so a cite stays true however often the summary is
// merged; the UI turns each one into a link that opens the original. A summarizer can
// cite a number it never saw (or copy a cite from background it was not summarizing),
// and a link to a message outside the summary's range would send the reader to the
// wrong place, so every summary's cites are checked against its range when it is
// written: numbers outside are removed, ranges that stick out are cut back.
//
// Only a parenthesized group made entirely of numbers counts as a cite; a bare "#12"
// in prose ("PR #12") is content and never touched.

/** A cited stretch of message numbers, `from` ≤ `to` (one message: `from` = `to`). */
export type CiteRange = { from: number; to: number };
/** One cite group in a text: where it stands and the numbers it names, as written. */
export type Citation = { start: number; end: number; ranges: CiteRange[] };
/** The messages a summary covers. */
export type CoveredRange = { fromSeq: number; toSeq: number };

const NUMBER = String.raw`#\s?(\d{1,9})`;
const DASH = String.raw`\s*[–—-]\s*`;
const REF = String.raw`${NUMBER}(?:${DASH}#?\s?(\d{1,9}))?`;
const GROUP = new RegExp(String.raw`\(\s*${REF}(?:\s*[,;]\s*${REF})*\s*\)`, "g");
const ONE_REF = new RegExp(REF, "g");

/** Every cite group of `text`, in order. Numbers below 1 are kept as written (validation removes them). */
export function parseCitations(text: string): Citation[] {
  const found: Citation[] = [];
  for (const match of text.matchAll(GROUP)) {
    const ranges: CiteRange[] = [];
    for (const ref of match[0].matchAll(ONE_REF)) {
      const a = Number(ref[1]);
      const b = ref[2] === undefined ? a : Number(ref[2]);
      ranges.push({ from: Math.min(a, b), to: Math.max(a, b) });
    }
    found.push({ start: match.index, end: match.index + match[0].length, ranges });
  }
  return found;
}

/** Sorted, overlapping and adjacent ranges joined: "(#3, #4, #9)" and "(#3–#4, #9)" say the same. */
export function normalizeRanges(ranges: readonly CiteRange[]): CiteRange[] {
  const sorted = ranges.map((r) => ({ from: Math.min(r.from, r.to), to: Math.max(r.from, r.to) })).sort((a, b) => a.from - b.from || a.to - b.to);
  const joined: CiteRange[] = [];
  for (const range of sorted) {
    const last = joined.at(-1);
    if (last && range.from <= last.to + 1) last.to = Math.max(last.to, range.to);
    else joined.push({ ...range });
  }
  return joined;
}

/** The canonical form of a cite: "(#12)", "(#12–#15)", "(#3, #7–#9)"; empty for no numbers. */
export function formatCitation(ranges: readonly CiteRange[]): string {
  const parts = normalizeRanges(ranges).map((r) => (r.from === r.to ? `#${r.from}` : `#${r.from}–#${r.to}`));
  return parts.length > 0 ? `(${parts.join(", ")})` : "";
}

/** The exact cite of a set of message numbers. */
export function citeSeqs(seqs: readonly number[]): string {
  return formatCitation(seqs.map((seq) => ({ from: seq, to: seq })));
}

/** The part of each range that lies inside `covered`; ranges wholly outside are gone. */
export function clampRanges(ranges: readonly CiteRange[], covered: CoveredRange): CiteRange[] {
  return ranges
    .map((r) => ({ from: Math.max(r.from, covered.fromSeq), to: Math.min(r.to, covered.toSeq) }))
    .filter((r) => r.from <= r.to);
}

/** Whether every number `ranges` names lies in `covered`. */
export function withinRange(ranges: readonly CiteRange[], covered: CoveredRange): boolean {
  return ranges.every((r) => r.from >= covered.fromSeq && r.to <= covered.toSeq);
}

/**
 * `text` with every cite checked against `covered`: each cite is written in its
 * canonical form, numbers outside the range are removed, ranges reaching outside it are
 * cut back to it, and a cite left with nothing goes (with the space before it).
 * `changed` counts the cites removed or repaired (a rewrite into canonical form alone
 * does not count). Text outside the cites is never touched.
 */
export function repairCitations(text: string, covered: CoveredRange): { text: string; changed: number } {
  // Removing a cite can join the text around it into a new one ("(# (#99)3)" → "(#3)"),
  // so repair runs until nothing changes: what it returns is repaired already.
  let changed = 0;
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const repaired = repairOnce(current, covered);
    changed += repaired.changed;
    if (repaired.text === current) break;
    current = repaired.text;
  }
  return { text: current, changed };
}

/** Each pass removes text or rewrites a cite canonically (idempotent), so a handful reaches the fixed point. */
const MAX_PASSES = 8;

function repairOnce(text: string, covered: CoveredRange): { text: string; changed: number } {
  let changed = 0;
  let result = "";
  let at = 0;
  for (const cite of parseCitations(text)) {
    const kept = clampRanges(cite.ranges, covered);
    if (!withinRange(cite.ranges, covered)) changed++;
    let before = text.slice(at, cite.start);
    const canonical = formatCitation(kept);
    if (!canonical) before = before.replace(/[ \t]+$/, "");
    result += before + canonical;
    at = cite.end;
  }
  return { text: result + text.slice(at), changed };
}

/** `text` without its cites (and the space before each): what a statement says, for comparing and scoring. */
export function withoutCitations(text: string): string {
  let current = text;
  // Like repair, until no cite is left: taking one out can join its neighbours into another.
  for (let pass = 0; pass < MAX_PASSES && current.includes("#"); pass++) {
    // Only from the start of a run of spaces: from every space of it, a long run without a cite was quadratic.
    const next = current.replace(new RegExp(String.raw`(?<![ \t])[ \t]*${GROUP.source}`, "g"), "");
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Every message number the cites of `text` name, range ends included, in order of appearance. */
export function citedNumbers(text: string): number[] {
  return parseCitations(text).flatMap((cite) => cite.ranges.flatMap((r) => (r.from === r.to ? [r.from] : [r.from, r.to])));
}

/**
 * `sentence` with `cite` at its end, before its closing punctuation ("Port is 8080 (#12)."),
 * where sentence splitters keep it with the sentence. A sentence that already cites
 * something keeps its own cite.
 */
export function attachCitation(sentence: string, cite: string): string {
  if (!cite || parseCitations(sentence).length > 0) return sentence;
  // Scanned from the end by hand: a pattern for it backtracked over every space of a long run.
  const trimmed = sentence.trimEnd();
  let closers = trimmed.length;
  while (closers > 0 && CLOSERS.includes(trimmed[closers - 1]!)) closers--;
  let stops = closers;
  while (stops > 0 && STOPS.includes(trimmed[stops - 1]!)) stops--;
  // Closing quotes or brackets count as the ending only after a stop (`said "yes."`), not alone (`(see above)`).
  const endingStart = stops < closers ? stops : trimmed.length;
  const body = trimmed.slice(0, endingStart).trimEnd();
  if (!body) return sentence;
  return `${body} ${cite}${trimmed.slice(endingStart)}`;
}

const STOPS = ".!?";
const CLOSERS = `"'”’)`;
