import { citeSeqs, clampRanges, formatCitation, parseCitations, withoutCitations, type CoveredRange } from "./citations";

// FACT lines ("FACT key=value") are the user's loss-free channel: whatever a summary
// paraphrases, these must reach the model verbatim at every level. A fact may stand on
// its own line (the value is the rest of the line) or sit inside a sentence (the value
// is the next word).

const OCCURRENCE = /FACT ([^\s=]+)=/g;
const LINE_PREFIX = /^[ \t>*-]*$/;
// Starts at a separator or where a run of spaces starts, never inside one: from every space of a long run it was quadratic.
const NEXT_FACT_ON_LINE = /(?:[;,]|(?<!\s))\s+FACT [^\s=]+=/;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}"'`*]+$/;

export type Fact = { key: string; value: string; line: string; start: number; end: number };

export function findFacts(text: string): Fact[] {
  const facts: Fact[] = [];
  // Where the line of the current occurrence starts, found going forward: looking back
  // from every occurrence rescanned the whole line each time, and a long line full of
  // them (an 8 MB attachment) held the event loop for minutes.
  let lineStart = 0;
  let nextNewline = text.indexOf("\n");
  for (const match of text.matchAll(OCCURRENCE)) {
    const start = match.index;
    const key = match[1]!;
    const valueStart = start + match[0].length;
    while (nextNewline >= 0 && nextNewline < start) {
      lineStart = nextNewline + 1;
      nextNewline = text.indexOf("\n", lineStart);
    }
    let raw: string;
    if (LINE_PREFIX.test(text.slice(lineStart, start))) {
      const lineEnd = text.indexOf("\n", valueStart);
      raw = text.slice(valueStart, lineEnd < 0 ? text.length : lineEnd);
      const next = raw.search(NEXT_FACT_ON_LINE);
      if (next >= 0) raw = raw.slice(0, next);
      // A cite after a fact line ("FACT port=5433 (#12)") says where it came from; it is not the value.
      const bare = withoutCitations(raw.trimEnd());
      if (bare.length < raw.trimEnd().length) raw = bare;
    } else {
      raw = /^\S*/.exec(text.slice(valueStart))![0];
    }
    const value = raw.trim().replace(TRAILING_PUNCTUATION, "");
    if (value) facts.push({ key, value, line: `FACT ${key}=${value}`, start, end: valueStart + raw.length });
  }
  return facts;
}

/** Every fact in `text` as a normalized `FACT key=value` line, first occurrence order, no duplicates. */
export function extractFacts(text: string): string[] {
  return [...new Set(findFacts(text).map((fact) => fact.line))];
}

/**
 * Moves a cut position out of any fact it would split: "FACT color=bl" left behind by a
 * character limit would be read as a (false) fact by every later reader.
 */
export function cutOutsideFacts(text: string, index: number): number {
  for (const fact of findFacts(text)) if (fact.start < index && index < fact.end) return fact.start;
  return index;
}

function lastValues(facts: string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const fact of facts) {
    const [key] = fact.slice(5).split("=", 1);
    values.set(key!, fact);
  }
  return values;
}

/** Where each fact was said: the numbers of the messages that state it. */
export type FactSources = Map<string, string>;

/** The facts of messages, each cited with every message that states it. */
export function factSourcesOfMessages(messages: { seq: number; text: string }[]): FactSources {
  const seqs = new Map<string, number[]>();
  for (const message of messages) for (const fact of extractFacts(message.text)) seqs.set(fact, [...(seqs.get(fact) ?? []), message.seq]);
  return new Map([...seqs].map(([fact, list]) => [fact, citeSeqs(list)]));
}

/**
 * The facts of a summary, each with the cite its line carries (cut back to the
 * summary's range), else the summary's whole range: all that is known of its source.
 */
export function factSourcesOfSummary(summary: string, covered: CoveredRange): FactSources {
  const sources: FactSources = new Map();
  const whole = formatCitation([{ from: covered.fromSeq, to: covered.toSeq }]);
  for (const fact of findFacts(summary)) {
    if (sources.has(fact.line)) continue;
    const lineStart = summary.lastIndexOf("\n", fact.start - 1) + 1;
    const lineEnd = summary.indexOf("\n", fact.start);
    const line = summary.slice(lineStart, lineEnd < 0 ? summary.length : lineEnd);
    const cited = formatCitation(clampRanges(parseCitations(line).flatMap((cite) => cite.ranges), covered));
    sources.set(fact.line, cited || whole);
  }
  return sources;
}

/**
 * Appends the source's facts the summary lost (a model may paraphrase or drop them),
 * removes facts the model only copied from context summaries that stay active anyway,
 * and makes sure the newest value of each key is also the last one in the text, since
 * readers take the last occurrence.
 */
export function reconcileFacts(summary: string, sourceFacts: string[], contextFacts: string[] = [], sources?: FactSources): string {
  const source = new Set(sourceFacts);
  const contextOnly = new Set(contextFacts.filter((fact) => !source.has(fact)));
  let text = summary;
  if (contextOnly.size > 0) {
    text = text
      .split("\n")
      .filter((line) => {
        const facts = extractFacts(line);
        return !(facts.length > 0 && facts.every((fact) => contextOnly.has(fact)));
      })
      .join("\n");
  }
  const present = new Set(extractFacts(text));
  const appended = sourceFacts.filter((fact) => !present.has(fact));
  const order = [...findFacts(text).map((fact) => fact.line), ...appended];
  for (const [key, newest] of lastValues(sourceFacts)) {
    if (lastValues(order).get(key) === newest) continue;
    if (appended.includes(newest)) appended.splice(appended.indexOf(newest), 1);
    appended.push(newest);
    order.push(newest);
  }
  if (appended.length === 0) return text.trim();
  // A restored fact says where it came from, like every statement of a summary.
  const cited = appended.map((fact) => (sources?.get(fact) ? `${fact} ${sources.get(fact)}` : fact));
  return `${text.trim()}\n${cited.join("\n")}`.trim();
}

/**
 * Caps a summary at `maxChars` (count mode's 1,500-character summaries) without losing
 * facts: fact lines are set aside, the prose is shortened, facts are kept even past the cap.
 */
export function capSummary(summary: string, maxChars: number): string {
  if (summary.length <= maxChars) return summary;
  const facts = extractFacts(summary);
  const prose = summary
    .split("\n")
    .filter((line) => extractFacts(line).length === 0 || !LINE_PREFIX.test(line.slice(0, line.indexOf("FACT "))))
    .join("\n")
    .trim();
  const factBlock = facts.join("\n");
  const room = maxChars - factBlock.length - (factBlock ? 1 : 0);
  const keptProse = room <= 1 ? "" : prose.length <= room ? prose : `${prose.slice(0, cutOutsideFacts(prose, room - 1)).trimEnd()}…`;
  return [keptProse, factBlock].filter(Boolean).join("\n");
}
