import type { CompressionSettings } from "../settings";
import type { SharedPrefix } from "../shared-prefix";
import type { CompactionRecord, StrategyName, Summarizer, SummarySections, TokenCounter, TranscriptMessage } from "../types";

export type StrategyContext = {
  summarizer: Summarizer;
  tokens: TokenCounter;
  settings: CompressionSettings;
  /** The resolved summary model (settings.summaryModel or the conversation's). */
  model: string;
  /** The bound of this summary for this window (the budget's summaryMaxTokens). */
  maxTokens: number;
  /** Per-compaction instructions, appended to the prompt. */
  instructions?: string;
  /** Count trigger: the summary is capped at this many characters (count mode keeps many small summaries). */
  maxChars?: number;
  signal?: AbortSignal;
  /** Set when the request reuses the chat request's prefix (same model): the material is named in it, not copied. */
  shared?: SharedPrefix;
};

export type SummarizeInput = StrategyContext & {
  messages: TranscriptMessage[];
  fromSeq: number;
  toSeq: number;
  /** Active summaries just before the range, shown to the model as context. */
  context: CompactionRecord[];
  /**
   * Summaries replaced together with the messages (folded into this summary, which
   * then stands one level above them): a merge and a summary in one call.
   */
  fold: CompactionRecord[];
};

export type MergeInput = StrategyContext & { children: CompactionRecord[]; level: number };

export type StrategyOutput = {
  summary: string;
  /** The gist in a few words: the title line the model wrote, or one a strategy derived. */
  title?: string;
  sections?: SummarySections;
  /** The model that wrote it; absent for deterministic strategies. */
  model?: string;
  /** The model stopped at max_tokens: the text ends mid-thought. */
  cut?: boolean;
  /** What happened on the way that the attempt record should say (a fallback, a shortening). */
  notes?: string[];
};

/** One way of turning a range into text . Failures throw SummaryFailure. */
export interface CompressionStrategy {
  readonly name: StrategyName;
  summarize(input: SummarizeInput): Promise<StrategyOutput>;
  merge(input: MergeInput): Promise<StrategyOutput>;
}
