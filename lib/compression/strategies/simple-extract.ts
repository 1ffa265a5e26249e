import { citeSeqs, formatCitation, withoutCitations } from "../citations";
import { extractFacts, factSourcesOfMessages, factSourcesOfSummary, findFacts, type FactSources } from "../facts";
import { clipTitle, MAX_TITLE_CHARS } from "../title";
import type { TranscriptMessage } from "../types";
import type { CompressionStrategy } from "./types";

/** A one-line quote without facts: they are listed whole below, and a cut one would be false. */
function clip(text: string, maxChars: number): string {
  let withoutFacts = text;
  for (const fact of findFacts(text).reverse()) withoutFacts = withoutFacts.slice(0, fact.start) + withoutFacts.slice(fact.end);
  const flat = withoutFacts.replace(/\s+/g, " ").trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars)}...`;
}

/** Each fact once, with where it was said. */
function citedFactLines(facts: FactSources): string[] {
  return [...facts].map(([fact, cite]) => `${fact} ${cite}`);
}

/** The key information of a message: its cite (its number), role and the content cut to the field limit. */
function keyLine(message: TranscriptMessage, maxChars: number): string {
  const head = `${citeSeqs([message.seq])} ${message.role}`;
  if (message.role === "assistant" && message.toolCalls?.length) {
    const calls = message.toolCalls.map((call) => call.name).join(", ");
    const text = clip(message.content, maxChars);
    return `${head}: ${text ? `${text} ` : ""}→ tool_call ${calls}`;
  }
  if (message.role === "tool") return `${head}${message.toolName ? ` ${message.toolName}` : ""}: ${clip(message.content, maxChars)}`;
  return `${head}: ${clip(message.content, maxChars)}`;
}

/**
 * Simple extraction: no model, deterministic. Content is cut at
 * extractFieldMaxChars, so FACT lines are collected from the full text and kept
 * verbatim — a cut must never lose a fact the user recorded.
 */
export const simpleExtractStrategy: CompressionStrategy = {
  name: "simple_extract",
  async summarize(input) {
    const maxChars = input.settings.extractFieldMaxChars;
    const lines = input.messages.map((message) => keyLine(message, maxChars));
    const facts = citedFactLines(
      factSourcesOfMessages(
        input.messages.map((m) => ({ seq: m.seq, text: [m.content, ...(m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.arguments) : [])].join("\n") })),
      ),
    );
    const summary = [`Key points of messages ${input.fromSeq}–${input.toSeq}:`, ...lines, ...facts].join("\n");
    // Without a model, the title is what the first user message of the range asked.
    const asked = input.messages.find((message) => message.role === "user" && clip(message.content, MAX_TITLE_CHARS));
    return { summary, ...(asked ? { title: clipTitle(clip(asked.content, MAX_TITLE_CHARS * 2)) } : {}) };
  },
  async merge(input) {
    // Concatenate-and-extract: each child shrinks to one line of at most the field limit.
    const maxChars = input.settings.extractFieldMaxChars;
    const lines = input.children.map((child) => {
      const childFacts = new Set(extractFacts(child.summary));
      const prose = child.summary
        .split("\n")
        .filter((line) => !childFacts.has(withoutCitations(line).trim()) && !line.startsWith("Key points of messages"))
        .join(" / ");
      return `${formatCitation([{ from: child.fromSeq, to: child.toSeq }])} ${clip(prose, maxChars)}`;
    });
    const sources: FactSources = new Map();
    for (const child of input.children) for (const [fact, cite] of factSourcesOfSummary(child.summary, child)) if (!sources.has(fact)) sources.set(fact, cite);
    const facts = citedFactLines(sources);
    const first = input.children.find((child) => child.title);
    return { summary: [...lines, ...facts].join("\n"), ...(first?.title ? { title: first.title } : {}) };
  },
};
