import { contextBudget, type ContextBudget } from "./budget";
import { isToolSession } from "./clearing";
import { historyNoticeTokens } from "./recall";
import { compactionsInRequest, renderedCompactionTokens } from "./render";
import type { CompressionSettings } from "./settings";
import type { Calibration, ContextBreakdown, ModelCatalog, TokenCounter, Transcript, TranscriptMessage } from "./types";

export type MeasureDeps = { tokens: TokenCounter; models: ModelCatalog };

/**
 * Until a server has reported a prompt count, our count is scaled by this: servers
 * count with their own tokenizers (or by characters), and a request that fits by our
 * count can be over the window by theirs. One reported usage replaces it.
 */
export const UNCALIBRATED_FACTOR = 1.2;
/** A reported factor outside this range is a server bug, not a tokenizer. */
const FACTOR_RANGE = { min: 0.5, max: 3 } as const;

export function contextWindowFor(model: string, settings: CompressionSettings, models: ModelCatalog): number {
  return models.contextWindow(model, settings.contextWindowOverrides);
}

/** The budget of this transcript's model, with its system prompt and tool definitions as the fixed part. */
export function budgetFor(
  transcript: Pick<Transcript, "model" | "systemPrompt" | "systemPromptTokens" | "toolTokens" | "messages" | "clearings">,
  settings: CompressionSettings,
  models: ModelCatalog,
): ContextBudget {
  const base = (transcript.systemPrompt.trim() ? transcript.systemPromptTokens : 0) + transcript.toolTokens;
  const window = contextWindowFor(transcript.model, settings, models);
  return contextBudget(window, settings, toServerTokens(base, calibrationOf(transcript.messages)), isToolSession(transcript));
}

/**
 * How the server's count relates to ours: the newest assistant message with reported
 * usage compares the server's prompt count with our count of that same request.
 */
export function calibrationOf(messages: TranscriptMessage[]): Calibration {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "assistant" || !message.usage || message.usage.requestTokens <= 0) continue;
    const factor = message.usage.promptTokens / message.usage.requestTokens;
    if (!Number.isFinite(factor) || factor <= 0) continue;
    return { source: "reported", factor: Math.min(FACTOR_RANGE.max, Math.max(FACTOR_RANGE.min, factor)) };
  }
  return { source: "margin", factor: UNCALIBRATED_FACTOR };
}

/** Our count → the server's, as far as we know it. */
export function toServerTokens(ourTokens: number, calibration: Calibration): number {
  return Math.ceil(ourTokens * calibration.factor);
}

/** The server's count → ours (for choosing how many of our messages make up an amount). */
export function toOurTokens(serverTokens: number, calibration: Calibration): number {
  return Math.floor(serverTokens / calibration.factor);
}

export function breakdownOf(
  parts: { systemTokens: number; summaryTokens: number; messageTokens: number; toolTokens: number },
  calibration: Calibration,
  contextWindow: number,
): ContextBreakdown {
  const ours = parts.systemTokens + parts.summaryTokens + parts.messageTokens + parts.toolTokens;
  const totalTokens = toServerTokens(ours, calibration);
  return {
    ...parts,
    correctionTokens: totalTokens - ours,
    totalTokens,
    contextWindow,
    ratio: contextWindow > 0 ? totalTokens / contextWindow : Infinity,
    calibration,
  };
}

/** The context as the transcript stands (the usage ratio the triggers read), before request assembly drops anything. */
export function measureTranscript(transcript: Transcript, settings: CompressionSettings, deps: MeasureDeps): ContextBreakdown {
  const summaryTokens = compactionsInRequest(transcript.compactions).reduce((sum, c) => sum + renderedCompactionTokens(c, deps.tokens), 0);
  const messageTokens = transcript.messages.reduce((sum, m) => sum + m.tokens, 0);
  const contextWindow = contextWindowFor(transcript.model, settings, deps.models);
  return breakdownOf(
    {
      // The history notice rides with the system prompt once something is compressed.
      systemTokens: (transcript.systemPrompt.trim() ? transcript.systemPromptTokens : 0) + historyNoticeTokens(transcript, settings, contextWindow, deps.tokens),
      summaryTokens,
      messageTokens,
      toolTokens: transcript.toolTokens,
    },
    calibrationOf(transcript.messages),
    contextWindow,
  );
}

/** Entries of the context that compression can act on (the system prompt is not one). */
export function contextEntryCount(transcript: Transcript): number {
  return transcript.messages.length + transcript.compactions.length;
}
