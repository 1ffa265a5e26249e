import { buildPromptMessages, buildSharedMessages, DEFAULT_SUMMARY_INSTRUCTIONS, lengthLimit } from "../prompts";
import { backgroundText, mergeWithModel, summaryBody, writeWithModel } from "./shared";
import type { CompressionStrategy } from "./types";

/** A separate summary-model call writes the summary (the default strategy). */
export const aiSummaryStrategy: CompressionStrategy = {
  name: "ai_summary",
  async summarize(input) {
    const parts = {
      kind: "summary",
      instructions: input.settings.customPrompt.trim() || DEFAULT_SUMMARY_INSTRUCTIONS,
      extraInstructions: input.instructions,
      limits: lengthLimit(input.maxTokens, input.maxChars),
    } as const;
    const messages = input.shared
      ? buildSharedMessages(input.shared.messages, input.shared.rangeLine, parts)
      : buildPromptMessages({ ...parts, context: backgroundText(input), body: summaryBody(input) });
    return writeWithModel(input, messages);
  },
  merge: mergeWithModel,
};
