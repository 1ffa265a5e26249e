import type { CompressionSettings } from "../../../lib/compression/settings";

/** A 2,500-token window: compactions (and merges) happen every few turns. */
export const SMALL_WINDOW: Partial<CompressionSettings> = {
  contextWindowOverrides: { "gpt-4o-mini": 2500 },
  hardLimitReserve: 300,
  keepRecentCount: 4,
  summaryMaxTokens: 200,
  maxSummaryTokensPerLevel: 250,
  preemptiveThreshold: 0.5,
};
