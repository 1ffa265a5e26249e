import { z } from "zod";
import { buildPromptMessages, buildSharedMessages, lengthLimit, STRUCTURED_INSTRUCTIONS } from "../prompts";
import { renderSections } from "../render";
import { callSummaryModel, SummaryFailure } from "../summary-call";
import type { SummarySections } from "../types";
import { aiSummaryStrategy } from "./ai-summary";
import { backgroundText, mergeBody, mergeInstructions, mergeWithModel, summaryBody } from "./shared";
import type { CompressionStrategy, StrategyContext, StrategyOutput } from "./types";

const INVALID_JSON = "summary model returned invalid JSON";

const stringList = z.array(z.string()).default([]);
export const summarySectionsSchema = z.object({
  goals: stringList,
  decisions: stringList,
  completed: stringList,
  openItems: stringList,
  facts: stringList,
});

/** The optional "title" field a structured reply was asked for (the sections themselves do not carry it). */
function titleOf(text: string): string | undefined {
  const match = /"title"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  if (!match) return undefined;
  try {
    return (JSON.parse(`"${match[1]}"`) as string).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Models like to wrap JSON in ```json fences and a sentence; take the object itself. */
export function parseSections(text: string): SummarySections {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const candidate = (fenced?.[1] ?? text).trim();
  let raw: unknown;
  try {
    raw = JSON.parse(candidate);
  } catch (error) {
    const start = candidate.indexOf("{");
    const end = candidate.lastIndexOf("}");
    try {
      if (start < 0 || end <= start) throw error;
      raw = JSON.parse(candidate.slice(start, end + 1));
    } catch {
      const detail = error instanceof Error ? error.message : String(error);
      throw new SummaryFailure(`${INVALID_JSON}: ${detail}`, text.slice(0, 500));
    }
  }
  const parsed = summarySectionsSchema.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
    throw new SummaryFailure(`${INVALID_JSON}: ${detail}`, text.slice(0, 500));
  }
  return parsed.data;
}

async function askForSections(context: StrategyContext, instructions: string, body: string, background?: string) {
  const parts = {
    kind: "structured",
    instructions,
    extraInstructions: context.instructions,
    limits: lengthLimit(context.maxTokens, context.maxChars),
  } as const;
  const messages = context.shared
    ? buildSharedMessages(context.shared.messages, context.shared.rangeLine, parts)
    : buildPromptMessages({ ...parts, context: background, body });
  const { text } = await callSummaryModel({
    summarizer: context.summarizer,
    model: context.model,
    messages,
    ...(context.shared?.tools ? { tools: context.shared.tools } : {}),
    maxTokens: context.maxTokens,
    temperature: context.settings.summaryTemperature,
    timeoutMs: context.settings.summaryTimeoutMs,
    json: true,
    signal: context.signal,
  });
  const sections = parseSections(text);
  const summary = renderSections(sections);
  if (!summary.trim()) throw new SummaryFailure("summary model returned empty output");
  const title = titleOf(text);
  return { summary, sections, model: context.model, ...(title ? { title } : {}) };
}

/**
 * Many servers (small local models especially) answer in prose whatever they are
 * asked; a plain summary is still a summary, so the attempt falls back to one and
 * says so instead of failing every time.
 */
async function orPlain(structured: () => Promise<StrategyOutput>, plain: () => Promise<StrategyOutput>): Promise<StrategyOutput> {
  try {
    return await structured();
  } catch (error) {
    if (!(error instanceof SummaryFailure) || !error.reason.startsWith(INVALID_JSON)) throw error;
    const output = await plain();
    return { ...output, notes: [...(output.notes ?? []), `structured summary fell back to plain text (${error.reason})`] };
  }
}

/** Structured summaries: JSON sections, validated, rendered as titled lists. */
export const structuredStrategy: CompressionStrategy = {
  name: "structured",
  summarize(input) {
    const custom = input.settings.customPrompt.trim();
    // The JSON contract must survive a custom prompt, so it is added to it rather than replaced.
    const instructions = custom ? `${STRUCTURED_INSTRUCTIONS}\n\n${custom}` : STRUCTURED_INSTRUCTIONS;
    return orPlain(
      () =>
        askForSections(
          input,
          instructions,
          summaryBody(input),
          backgroundText(input),
        ),
      () => aiSummaryStrategy.summarize(input),
    );
  },
  merge(input) {
    return orPlain(
      () => askForSections(input, `${STRUCTURED_INSTRUCTIONS}\n\n${mergeInstructions(input)}`, mergeBody(input.children)),
      () => mergeWithModel(input),
    );
  },
};
