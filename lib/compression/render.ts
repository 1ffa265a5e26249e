import { summaryLabel } from "./framing";
import { deriveTitle } from "./title";
import type { CompactionRecord, SummarySections, TokenCounter } from "./types";

/** Role and framing tokens of a message the engine writes itself (the stored counts include theirs). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

type Renderable = Pick<CompactionRecord, "kind" | "fromSeq" | "toSeq" | "level" | "summary" | "title" | "outOfView">;

/** The first line of what stands for a summary out of the model's view: its range and its title. */
export function outOfViewLine(compaction: Pick<CompactionRecord, "fromSeq" | "toSeq" | "summary" | "title">): string {
  return `[#${compaction.fromSeq}–#${compaction.toSeq}, not shown] ${compaction.title ?? deriveTitle(compaction.summary)}`;
}

/** How a compaction appears to the chat model: one system message per compaction. */
export function renderCompactionText(compaction: Renderable): string {
  if (compaction.kind === "truncation") return compaction.summary;
  if (compaction.outOfView !== undefined) return compaction.outOfView;
  return `${summaryLabel(compaction.fromSeq, compaction.toSeq, compaction.level)}\n${compaction.summary}`;
}

/**
 * The compactions that have an entry in the request, in order: every one in view, and
 * those out of it that still stand there as a line. Assembly and every measure of the
 * context use this one list, so what is counted is what is sent.
 */
export function compactionsInRequest<T extends Pick<CompactionRecord, "outOfView">>(compactions: readonly T[]): T[] {
  return compactions.filter((c) => c.outOfView === undefined || c.outOfView !== "");
}

// Every turn measures and renders the same active summaries again; a summary's text
// never changes, so its count is remembered (per counter, bounded).
const MAX_REMEMBERED = 4096;
const rememberedCounts = new WeakMap<TokenCounter, Map<string, number>>();

function countRemembered(text: string, tokens: TokenCounter): number {
  let counts = rememberedCounts.get(tokens);
  if (!counts) rememberedCounts.set(tokens, (counts = new Map()));
  const known = counts.get(text);
  if (known !== undefined) return known;
  const counted = tokens.count(text);
  if (counts.size >= MAX_REMEMBERED) counts.clear();
  counts.set(text, counted);
  return counted;
}

export function renderedCompactionTokens(
  compaction: Renderable,
  tokens: TokenCounter,
): number {
  return countRemembered(renderCompactionText(compaction), tokens) + MESSAGE_OVERHEAD_TOKENS;
}

const SECTION_TITLES: [keyof SummarySections, string][] = [
  ["goals", "Goals"],
  ["decisions", "Decisions"],
  ["completed", "Completed"],
  ["openItems", "Open items"],
];

/** Structured summaries as text: titled bullet lists, FACT lines verbatim (not bulleted). */
export function renderSections(sections: SummarySections): string {
  const blocks: string[] = [];
  for (const [key, title] of SECTION_TITLES) {
    const items = sections[key].map((item) => item.trim()).filter(Boolean);
    if (items.length > 0) blocks.push(`${title}:\n${items.map((item) => `- ${item}`).join("\n")}`);
  }
  const facts = sections.facts.map((fact) => fact.trim()).filter(Boolean);
  if (facts.length > 0) blocks.push(`Facts:\n${facts.join("\n")}`);
  return blocks.join("\n\n");
}
