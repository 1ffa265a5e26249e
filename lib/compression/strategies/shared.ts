import { conversationHeader, FOLD_INTRO, MERGE_INTRO, SEPARATOR } from "../framing";
import { renderCompactionText } from "../render";
import { buildPromptMessages, buildSharedMessages, lengthLimit, MERGE_INSTRUCTIONS } from "../prompts";
import { callSummaryModel } from "../summary-call";
import type { ChatMessage, CompactionRecord } from "../types";
import { formatTranscript } from "../transcript-format";
import type { MergeInput, StrategyContext, StrategyOutput, SummarizeInput } from "./types";

/** The material of a merge: the children as the chat model saw them, oldest first. */
export function mergeBody(children: CompactionRecord[]): string {
  return `${MERGE_INTRO}\n\n${children.map(renderCompactionText).join("\n\n")}`;
}

export function contextText(context: CompactionRecord[]): string {
  return context.map(renderCompactionText).join("\n\n");
}

/** The material of a summary: the messages, and the summaries folded in with them. */
export function summaryBody(input: SummarizeInput): string {
  const conversation = [conversationHeader(input.fromSeq, input.toSeq), SEPARATOR, formatTranscript(input.messages), SEPARATOR].join("\n");
  if (input.fold.length === 0) return conversation;
  return `${FOLD_INTRO}\n\n${contextText(input.fold)}\n\n${conversation}`;
}

/** Summaries already folded into the material are not also shown as background. */
export function backgroundText(input: SummarizeInput): string {
  return input.fold.length > 0 ? "" : contextText(input.context);
}

/** The user's custom prompt still applies to merges, after the merge instructions. */
export function mergeInstructions(context: StrategyContext): string {
  const custom = context.settings.customPrompt.trim();
  return custom ? `${MERGE_INSTRUCTIONS}\n\nThe user's summary instructions:\n${custom}` : MERGE_INSTRUCTIONS;
}

/** Level >= 2 merge by the summary model, used by every model-backed strategy but structured. */
export async function mergeWithModel(input: MergeInput): Promise<StrategyOutput> {
  const parts = {
    kind: "summary",
    instructions: mergeInstructions(input),
    extraInstructions: input.instructions,
    limits: lengthLimit(input.maxTokens, input.maxChars),
  } as const;
  const messages = input.shared
    ? buildSharedMessages(input.shared.messages, input.shared.rangeLine, parts)
    : buildPromptMessages({ ...parts, body: mergeBody(input.children) });
  return writeWithModel(input, messages);
}

/** One plain-text call to the summary model with the strategy's limits; a reply cut at max_tokens says so. */
export async function writeWithModel(input: StrategyContext & { model: string; maxTokens: number }, messages: ChatMessage[]): Promise<StrategyOutput> {
  const reply = await callSummaryModel({
    summarizer: input.summarizer,
    model: input.model,
    messages,
    ...(input.shared?.tools ? { tools: input.shared.tools } : {}),
    maxTokens: input.maxTokens,
    temperature: input.settings.summaryTemperature,
    timeoutMs: input.settings.summaryTimeoutMs,
    signal: input.signal,
  });
  return { summary: reply.text, model: input.model, cut: reply.finishReason === "length" };
}

