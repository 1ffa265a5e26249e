import { buildPromptMessages, DEFAULT_SUMMARY_INSTRUCTIONS, lengthLimit } from "../prompts";
import { callSummaryModel } from "../summaryCall";
import { backgroundText, mergeWithModel, summaryBody } from "./shared";
import type { CompressionStrategy } from "./types";

/** A separate summary-model call writes the summary (the default strategy). */
export const aiSummaryStrategy: CompressionStrategy = {
  name: "ai_summary",
  async summarize(input) {
    const messages = buildPromptMessages({
      kind: "summary",
      instructions: input.settings.customPrompt.trim() || DEFAULT_SUMMARY_INSTRUCTIONS,
      extraInstructions: input.instructions,
      limits: lengthLimit(input.maxTokens, input.maxChars),
      context: backgroundText(input),
      body: summaryBody(input),
    });
    const reply = await callSummaryModel({
      summarizer: input.summarizer,
      model: input.model,
      messages,
      maxTokens: input.maxTokens,
      temperature: input.settings.summaryTemperature,
      timeoutMs: input.settings.summaryTimeoutMs,
      signal: input.signal,
    });
    return { summary: reply.text, model: input.model, cut: reply.finishReason === "length" };
  },
  merge: mergeWithModel,
};
