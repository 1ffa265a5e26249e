import { renderCompactionText } from "../render";
import { buildPromptMessages, lengthLimit, MERGE_INSTRUCTIONS } from "../prompts";
import { callSummaryModel } from "../summaryCall";
import type { CompactionRecord } from "../types";
import type { MergeInput, StrategyContext } from "./types";

/** The material of a merge: the children as the chat model saw them, oldest first. */
export function mergeBody(children: CompactionRecord[]): string {
  return `Summaries to merge, oldest first:\n\n${children.map(renderCompactionText).join("\n\n")}`;
}

export function contextText(context: CompactionRecord[]): string {
  return context.map(renderCompactionText).join("\n\n");
}

/** The user's custom prompt still applies to merges, after the merge instructions. */
export function mergeInstructions(context: StrategyContext): string {
  const custom = context.settings.customPrompt.trim();
  return custom ? `${MERGE_INSTRUCTIONS}\n\nThe user's summary instructions:\n${custom}` : MERGE_INSTRUCTIONS;
}

/** Level >= 2 merge by the summary model, used by every model-backed strategy but structured. */
export async function mergeWithModel(input: MergeInput): Promise<{ summary: string; model: string }> {
  const messages = buildPromptMessages({
    kind: "summary",
    instructions: mergeInstructions(input),
    extraInstructions: input.instructions,
    limits: lengthLimit(input.settings.summaryMaxTokens, input.maxChars),
    body: mergeBody(input.children),
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
}

