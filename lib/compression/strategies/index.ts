import type { StrategyName } from "../types";
import { aiSummaryStrategy } from "./ai-summary";
import { simpleExtractStrategy } from "./simple-extract";
import { structuredStrategy } from "./structured";
import { turnDigestStrategy } from "./turn-digest";
import type { CompressionStrategy } from "./types";

export const STRATEGY_REGISTRY: Record<StrategyName, CompressionStrategy> = {
  ai_summary: aiSummaryStrategy,
  simple_extract: simpleExtractStrategy,
  structured: structuredStrategy,
  turn_digest: turnDigestStrategy,
};

export type { CompressionStrategy, MergeInput, StrategyOutput, SummarizeInput } from "./types";
export { parseSections, summarySectionsSchema } from "./structured";
export { splitIntoTurns } from "./turn-digest";
