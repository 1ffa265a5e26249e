// The sections of a structured summary, in the order a block shows them.
import type { SummarySections } from "@/lib/compression/types";

export const SECTION_LABELS: [keyof SummarySections, string][] = [
  ["goals", "Goals"],
  ["decisions", "Decisions"],
  ["completed", "Completed"],
  ["openItems", "Open items"],
  ["facts", "Facts"],
];
