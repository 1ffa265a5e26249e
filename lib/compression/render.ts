import { summaryLabel } from "./framing";
import type { CompactionRecord, SummarySections, TokenCounter } from "./types";

/** Role and framing tokens of a message the engine writes itself (the stored counts include theirs). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** How a compaction appears to the chat model: one system message per compaction. */
export function renderCompactionText(compaction: Pick<CompactionRecord, "kind" | "fromSeq" | "toSeq" | "level" | "summary">): string {
  if (compaction.kind === "truncation") return compaction.summary;
  return `${summaryLabel(compaction.fromSeq, compaction.toSeq, compaction.level)}\n${compaction.summary}`;
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
  compaction: Pick<CompactionRecord, "kind" | "fromSeq" | "toSeq" | "level" | "summary">,
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
