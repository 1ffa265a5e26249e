import { capSummary, extractFacts, reconcileFacts } from "./facts";
import { renderSections } from "./render";
import type { StrategyOutput } from "./strategies/types";
import type { CompactionRecord, TranscriptMessage } from "./types";

/** Every text of a message a FACT line could hide in (content and tool-call arguments). */
export function messageText(message: TranscriptMessage): string {
  const calls = message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.arguments) : [];
  return [message.content, ...calls].join("\n");
}

export function factsOfMessages(messages: TranscriptMessage[]): string[] {
  return extractFacts(messages.map(messageText).join("\n"));
}

export function factsOfCompactions(compactions: CompactionRecord[]): string[] {
  return extractFacts(compactions.map((c) => c.summary).join("\n"));
}

/**
 * Makes a strategy's output safe to store: facts of the source that the model lost
 * are restored, facts it only copied from context summaries are removed, and the
 * count trigger's character cap is applied without cutting facts.
 */
export function finalizeOutput(
  output: StrategyOutput,
  sourceFacts: string[],
  contextFacts: string[],
  maxChars?: number,
): StrategyOutput {
  if (output.sections) {
    const source = new Set(sourceFacts);
    const contextOnly = new Set(contextFacts.filter((fact) => !source.has(fact)));
    const kept = output.sections.facts.map((fact) => fact.trim()).filter((fact) => fact && !contextOnly.has(fact));
    const keptSet = new Set(kept);
    const sections = { ...output.sections, facts: [...kept, ...sourceFacts.filter((fact) => !keptSet.has(fact))] };
    return { ...output, sections, summary: renderSections(sections) };
  }
  const summary = reconcileFacts(output.summary, sourceFacts, contextFacts);
  return { ...output, summary: maxChars ? capSummary(summary, maxChars) : summary };
}
