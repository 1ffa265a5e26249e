// The line a collapsed summary shows: enough to recognise it, short enough that a
// timeline of compactions reads as a list rather than a wall of text.
import type { SummarySections } from "@/lib/compression/types";

export const PREVIEW_CHARS = 160;

export const SECTION_LABELS: [keyof SummarySections, string][] = [
  ["goals", "Goals"],
  ["decisions", "Decisions"],
  ["completed", "Completed"],
  ["openItems", "Open items"],
  ["facts", "Facts"],
];

/** One line of plain text: Markdown's block markers and emphasis are noise in a preview. */
function plainLine(line: string): string {
  return line
    .replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)+/, "")
    .replace(/(\*\*|__|`)/g, "")
    .trim();
}

function clip(text: string): string {
  if (text.length <= PREVIEW_CHARS) return text;
  const cut = text.slice(0, PREVIEW_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > PREVIEW_CHARS * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export type SummaryPreview = { text: string; /** False when the preview already is the whole summary. */ partial: boolean };

/** The first line with text (or the first section's entries), at most PREVIEW_CHARS long. */
export function summaryPreview(summary: string, sections: SummarySections | null): SummaryPreview {
  if (sections) {
    const filled = SECTION_LABELS.filter(([key]) => sections[key].length > 0);
    const whole = filled.map(([key, label]) => `${label}: ${sections[key].join("; ")}`).join(" · ");
    return { text: clip(whole), partial: whole.length > PREVIEW_CHARS };
  }
  const lines = summary.split("\n").map(plainLine).filter(Boolean);
  const first = lines[0] ?? "";
  return { text: clip(first), partial: lines.length > 1 || first.length > PREVIEW_CHARS };
}
