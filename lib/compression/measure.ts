import { renderedCompactionTokens } from "./render";
import type { CompressionSettings } from "./settings";
import type { ContextBreakdown, ModelCatalog, TokenCounter, Transcript, TranscriptMessage } from "./types";

export type MeasureDeps = { tokens: TokenCounter; models: ModelCatalog };

export function contextWindowFor(model: string, settings: CompressionSettings, models: ModelCatalog): number {
  return settings.contextWindowOverrides[model] ?? models.contextWindow(model);
}

export function hardLimitFor(contextWindow: number, settings: CompressionSettings): number {
  return contextWindow - settings.hardLimitReserve;
}

/**
 * How far our estimate was off the last time the API told us: the newest assistant
 * message with usage compares the API's prompt count with our count of that prompt.
 */
export function usageCorrection(messages: TranscriptMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "assistant" && message.usage) return message.usage.promptTokens - message.usage.requestTokens;
  }
  return 0;
}

export function breakdownOf(
  parts: { systemTokens: number; summaryTokens: number; messageTokens: number; correctionTokens: number },
  contextWindow: number,
): ContextBreakdown {
  const totalTokens = Math.max(0, parts.systemTokens + parts.summaryTokens + parts.messageTokens + parts.correctionTokens);
  return { ...parts, totalTokens, contextWindow, ratio: contextWindow > 0 ? totalTokens / contextWindow : Infinity };
}

/** The context as the transcript stands (REQ-3.1's usage ratio), before request assembly drops anything. */
export function measureTranscript(transcript: Transcript, settings: CompressionSettings, deps: MeasureDeps): ContextBreakdown {
  const summaryTokens = transcript.compactions.reduce((sum, c) => sum + renderedCompactionTokens(c, deps.tokens), 0);
  const messageTokens = transcript.messages.reduce((sum, m) => sum + m.tokens, 0);
  return breakdownOf(
    {
      systemTokens: transcript.systemPrompt.trim() ? transcript.systemPromptTokens : 0,
      summaryTokens,
      messageTokens,
      correctionTokens: usageCorrection(transcript.messages),
    },
    contextWindowFor(transcript.model, settings, deps.models),
  );
}

/** Entries of the context that compression can act on (the system prompt is not one). */
export function contextEntryCount(transcript: Transcript): number {
  return transcript.messages.length + transcript.compactions.length;
}
