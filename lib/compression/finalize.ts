import { boundText, endAtLastSentence } from "./condense";
import { formatCitation, repairCitations, withoutCitations, type CoveredRange } from "./citations";
import { carryDetails, type DetailSource } from "./details";
import { capSummary, extractFacts, factSourcesOfMessages, factSourcesOfSummary, reconcileFacts, type FactSources } from "./facts";
import { isFraming, NOTHING_KEPT, withoutFraming } from "./framing";
import { formatCount, renderSections } from "./render";
import { clipTitle, deriveTitle, takeTitle } from "./title";
import type { StrategyOutput } from "./strategies/types";
import type { CompactionRecord, TokenCounter, TranscriptMessage } from "./types";

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

/** Where the facts of summaries and messages were said, for the cite of a fact the engine restores. */
export function factSources(compactions: CompactionRecord[], messages: TranscriptMessage[]): FactSources {
  const sources: FactSources = new Map();
  for (const c of compactions) for (const [fact, cite] of factSourcesOfSummary(c.summary, c)) if (!sources.has(fact)) sources.set(fact, cite);
  for (const [fact, cite] of factSourcesOfMessages(messages.map((m) => ({ seq: m.seq, text: messageText(m) })))) if (!sources.has(fact)) sources.set(fact, cite);
  return sources;
}

/** The texts a summary was written from, each with its cite: a message's number, a summary's range. */
export function detailSources(compactions: CompactionRecord[], messages: TranscriptMessage[]): DetailSource[] {
  return [
    ...compactions.map((c) => ({ text: c.summary, cite: formatCitation([{ from: c.fromSeq, to: c.toSeq }]) })),
    ...messages.filter((m) => m.role !== "tool").map((m) => ({ text: m.content, cite: formatCitation([{ from: m.seq, to: m.seq }]) })),
  ];
}

/** Summaries shown to the model as background (they stay in the request), and the texts it was asked to summarize. */
export type Background = { summaries: string[]; sources: string[] };

/**
 * Whether a line repeats the background verbatim without being said again in the
 * summarized texts. The background summary stays in the request right before the new
 * one, so such a line is a second copy; left in, it also fills the new summary's bound
 * before what the new messages said (a model copies the background first).
 */
function repeatsBackground(background: Background | undefined): (line: string) => boolean {
  if (!background?.summaries.length) return () => false;
  const known = new Set(background.summaries.flatMap((summary) => summary.split("\n")).map((line) => line.trim()).filter(Boolean));
  const sources = background.sources.join("\n");
  return (line) => known.has(line.trim()) && !sources.includes(line.trim());
}

/**
 * How long a stored summary may be, the texts whose specifics it should carry if it left
 * them out, the range its cites must stay in, and where each fact of its sources was said.
 */
export type SummaryBound = {
  maxTokens: number;
  maxChars?: number;
  tokens: TokenCounter;
  preserveFacts: boolean;
  detailSources?: DetailSource[];
  covered?: CoveredRange;
  factSources?: FactSources;
};

/**
 * Makes a strategy's output safe to store: what the model copied of the request's own
 * framing goes (headers, labels, a "Summary:" heading) and so do lines it copied from the
 * background summary (`background`), a reply cut at max_tokens loses its
 * unfinished sentence, facts of the source that the model lost are restored (facts it
 * only copied from context summaries are removed), and the result is brought within
 * the bound whatever the model did with max_tokens.
 */
export function finalizeOutput(output: StrategyOutput, sourceFacts: string[], contextFacts: string[], bound: SummaryBound, background?: Background): StrategyOutput {
  const repeated = repeatsBackground(background);
  // The title line is the summarizer's answer to our request, not part of the summary.
  const titled = output.sections ? { text: output.summary, title: output.title } : takeTitle(output.summary);
  const givenTitle = output.title ?? titled.title;
  const notes = [...(output.notes ?? [])];
  let sections = output.sections;
  let summary: string;
  if (sections) {
    const source = new Set(sourceFacts);
    const contextOnly = new Set(contextFacts.filter((fact) => !source.has(fact)));
    const items = (list: string[]) => list.map((item) => item.trim()).filter((item) => item && !isFraming(item) && !repeated(item));
    const cited = (list: string[]) => (bound.covered ? list.map((item) => repairCitations(item, bound.covered!).text.trim()).filter(Boolean) : list);
    const kept = cited(items(sections.facts)).filter((fact) => !contextOnly.has(fact));
    const keptSet = new Set([...kept, ...kept.flatMap((fact) => extractFacts(fact))]);
    const restore = (fact: string) => (bound.factSources?.get(fact) ? `${fact} ${bound.factSources.get(fact)}` : fact);
    sections = {
      goals: cited(items(sections.goals)),
      decisions: cited(items(sections.decisions)),
      completed: cited(items(sections.completed)),
      openItems: cited(items(sections.openItems)),
      facts: [...kept, ...sourceFacts.filter((fact) => !keptSet.has(fact)).map(restore)],
    };
    summary = renderSections(sections);
  } else {
    let text = withoutFraming(titled.text)
      .split("\n")
      .filter((line) => !repeated(line))
      .join("\n");
    if (output.cut) {
      text = endAtLastSentence(text);
      notes.push("the summary model stopped at its length limit; its unfinished sentence was dropped");
    }
    // Cites are checked before facts are restored: a line copied from the background keeps none of its cites.
    if (bound.covered) text = repairCitations(text, bound.covered).text;
    summary = reconcileFacts(text, sourceFacts, contextFacts, bound.factSources);
  }
  if (bound.detailSources?.length) {
    const room = bound.maxTokens - bound.tokens.count(summary);
    const carried = carryDetails(summary, bound.detailSources, room, bound.tokens);
    if (carried.carried > 0) {
      summary = carried.text;
      sections = undefined;
      notes.push(`${carried.carried} sentence${carried.carried === 1 ? "" : "s"} with specifics the summary left out kept verbatim`);
    }
  }
  if (bound.maxChars && summary.length > bound.maxChars) {
    summary = capSummary(summary, bound.maxChars);
    sections = undefined;
    notes.push(`shortened to ${formatCount(bound.maxChars)} characters`);
  }
  const bounded = boundText(summary, bound.maxTokens, bound.tokens, bound.preserveFacts);
  if (bounded.shortened) {
    sections = undefined;
    notes.push(`the summary was longer than ${formatCount(bound.maxTokens)} tokens and was shortened`);
  }
  // Stored empty, a summary would look like a lost one; this says what happened.
  const empty = !bounded.text.trim();
  const result: StrategyOutput = { ...output, summary: empty ? NOTHING_KEPT : bounded.text };
  // A summarizer that ignored the request for a title (or a strategy without a model) still gets one.
  result.title = (givenTitle && clipTitle(withoutCitations(givenTitle))) || deriveTitle(result.summary);
  delete result.cut;
  if (sections && !empty) result.sections = sections;
  else delete result.sections;
  if (notes.length > 0) result.notes = notes;
  return result;
}
