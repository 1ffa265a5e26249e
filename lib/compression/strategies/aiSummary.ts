import { buildPromptMessages, DEFAULT_SUMMARY_INSTRUCTIONS, lengthLimit } from "../prompts";
import { callSummaryModel } from "../summaryCall";
import { formatTranscript } from "../transcriptFormat";
import { contextText, mergeWithModel } from "./shared";
import type { CompressionStrategy } from "./types";

/** Seed 000 AI_SUMMARY / seed 003 REQ-3.2: a separate summary-model call. */
export const aiSummaryStrategy: CompressionStrategy = {
  name: "ai_summary",
  async summarize(input) {
    const messages = buildPromptMessages({
      kind: "summary",
      instructions: input.settings.customPrompt.trim() || DEFAULT_SUMMARY_INSTRUCTIONS,
      extraInstructions: input.instructions,
      limits: lengthLimit(input.settings.summaryMaxTokens, input.maxChars),
      context: contextText(input.context),
      body: `Conversation to summarize (messages ${input.fromSeq}–${input.toSeq}):\n---\n${formatTranscript(input.messages)}\n---`,
    });
    const summary = await callSummaryModel({
      summarizer: input.summarizer,
      model: input.model,
      messages,
      maxTokens: input.settings.summaryMaxTokens,
      temperature: input.settings.summaryTemperature,
      timeoutMs: input.settings.summaryTimeoutMs,
      signal: input.signal,
    });
    return { summary, model: input.model };
  },
  merge: mergeWithModel,
};
