import { keyTermsOf } from "./details";
import { cutOutsideFacts, extractFacts } from "./facts";
import { formatCount } from "./render";
import type { TokenCounter } from "./types";

// Deterministic text reduction, for when a summary must get shorter and no model can
// (or may) do it: a summary over its bound, and the summaries a hard-limit truncation
// absorbs. Sentences that carry specifics (numbers, names, paths, FACT lines) go first;
// among equals the newer text wins; what is kept stays in its original order.

const TRUNCATION_NOTE = /^\[Earlier conversation truncated\b/;

type Unit = { text: string; source: number; position: number; score: number; tokens: number };

/** Lines, and long lines split into sentences. */
function unitsOf(text: string): string[] {
  const units: string[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed || TRUNCATION_NOTE.test(trimmed)) continue;
    if (trimmed.length <= 240) units.push(trimmed);
    else units.push(...trimmed.split(/(?<=[.!?])\s+/).map((part) => part.trim()).filter(Boolean));
  }
  return units;
}

function scoreOf(unit: string, preserveFacts: boolean): number {
  if (preserveFacts && extractFacts(unit).length > 0) return 3;
  return keyTermsOf(unit).length > 0 ? 2 : 1;
}

/**
 * At most `maxTokens` of `texts` (oldest first), sentence by sentence. With
 * `preserveFacts`, FACT lines come before anything else.
 */
export function condense(texts: string[], maxTokens: number, tokens: TokenCounter, preserveFacts: boolean): string {
  const seen = new Set<string>();
  const units: Unit[] = [];
  texts.forEach((text, source) => {
    for (const part of unitsOf(text)) {
      if (seen.has(part)) continue;
      seen.add(part);
      units.push({ text: part, source, position: units.length, score: scoreOf(part, preserveFacts), tokens: tokens.count(part) + 1 });
    }
  });
  const ranked = [...units].sort((a, b) => b.score - a.score || b.source - a.source || a.position - b.position);
  const kept = new Set<Unit>();
  let used = 0;
  for (const unit of ranked) {
    if (used + unit.tokens > maxTokens) continue;
    kept.add(unit);
    used += unit.tokens;
  }
  return units.filter((unit) => kept.has(unit)).map((unit) => unit.text).join("\n");
}

export const cutMarker = "[… the summary model stopped at its length limit]";
export const shortenedMarker = (maxTokens: number) => `[… shortened to fit ${formatCount(maxTokens)} tokens]`;

/**
 * A reply cut at max_tokens ends mid-sentence; a half sentence can state the opposite
 * of the whole one, so it goes, and a marker says the summary is incomplete.
 */
export function endAtLastSentence(text: string): string {
  const trimmed = text.trimEnd();
  const end = Math.max(trimmed.lastIndexOf("\n"), ...[". ", "! ", "? "].map((mark) => trimmed.lastIndexOf(mark) + 1));
  const last = trimmed.at(-1) ?? "";
  const complete = ".!?".includes(last) ? trimmed : end > 0 ? trimmed.slice(0, end).trimEnd() : trimmed;
  return `${complete}\n${cutMarker}`;
}

/**
 * Brings `text` within `maxTokens` the way condense() does — the most specific
 * sentences first, kept in order — then a visible marker. FACT lines (when preserved)
 * are never cut and are kept even past the bound: they are the user's explicit record.
 */
export function boundText(text: string, maxTokens: number, tokens: TokenCounter, preserveFacts: boolean): { text: string; shortened: boolean } {
  if (tokens.count(text) <= maxTokens) return { text, shortened: false };
  const marker = shortenedMarker(maxTokens);
  // Each line's facts are found once: a long line full of them (a pasted list) was read several times.
  const lines = text.split("\n").map((line) => ({ line, facts: preserveFacts && line.trim().startsWith("FACT ") ? extractFacts(line) : [] }));
  // A fact line keeps its cite ("FACT port=4021 (#4)"): each fact as its own line wrote it.
  const written = new Map<string, string>();
  for (const { line, facts } of lines) if (facts.length === 1 && !written.has(facts[0]!)) written.set(facts[0]!, line.trim());
  const facts = preserveFacts ? extractFacts(text).map((fact) => written.get(fact) ?? fact) : [];
  const prose = lines
    .filter(({ facts }) => facts.length === 0)
    .map(({ line }) => line)
    .join("\n");
  const room = maxTokens - tokens.count([marker, ...facts].join("\n")) - 2;
  let kept = room > 0 ? condense([prose], room, tokens, false) : "";
  if (!kept && room > 8) {
    // Not even one sentence fits: keep the head of the first, never splitting a fact.
    const chars = Math.floor((prose.length * room) / Math.max(1, tokens.count(prose)));
    kept = prose.slice(0, cutOutsideFacts(prose, chars)).trimEnd();
  }
  return { text: [kept, marker, ...facts].filter((line) => line.trim()).join("\n"), shortened: true };
}
