import { CONTEXT_INTRO } from "./framing";
import { TITLE_FIELD_INSTRUCTION, TITLE_INSTRUCTION } from "./title";
import type { ChatMessage } from "./types";

/** The three kinds of summary request: a prose summary, a structured (JSON) one, a one-line digest of a turn. */
export type PromptKind = "summary" | "structured" | "digest";

const PRESERVE_RULES = [
  "Keep identifiers, file paths, URLs, numbers, names, commands and error messages exactly as written.",
  'Copy every fact line verbatim, one per line, even if it seems minor. A fact line starts with the word FACT, a space, then a key, "=" and a value.',
  "Do not invent anything. Leave out small talk and repeated tool output.",
].join("\n");

/**
 * Asked of every summary, merge and structured summary, whatever the instructions (a
 * custom prompt included): the material labels each message with its number, earlier
 * summaries carry their own cites, and the engine removes any cite outside the range.
 */
export const CITATION_INSTRUCTION =
  "After each statement, cite the numbers of the messages it came from, in parentheses before the full stop: (#12) for one message, (#12–#15) for a run, (#3, #7) for several. Keep the cites of statements you carry over from earlier summaries. Cite only numbers you were shown.";

/** What a summary must keep: goals, decisions, completed work, open items; facts verbatim. */
// The instructions never spell out a literal fact line: servers and reconcileFacts
// pick fact lines out of the whole request, and an example would become a "fact".
export const DEFAULT_SUMMARY_INSTRUCTIONS = [
  "You compress the earlier part of a long conversation between a user and an AI assistant, so that the assistant can continue the work without the original messages.",
  "Write a concise summary covering:",
  "- Task goals: what the user wants to achieve.",
  "- Important decisions: what was chosen and why.",
  "- Completed work: what has been done and its results.",
  "- Open items: what is still pending, asked for or promised.",
  PRESERVE_RULES,
].join("\n");

export const MERGE_INSTRUCTIONS = [
  "You merge several consecutive summaries of an earlier conversation into ONE shorter summary that replaces them all.",
  "Keep the task goals, important decisions, completed work and open items; drop what later summaries show was superseded.",
  PRESERVE_RULES,
].join("\n");

export const STRUCTURED_INSTRUCTIONS = [
  "You compress the earlier part of a conversation between a user and an AI assistant into JSON.",
  'Reply with ONLY a JSON object of this shape: {"goals": string[], "decisions": string[], "completed": string[], "openItems": string[], "facts": string[]}.',
  "goals: what the user wants to achieve. decisions: what was chosen and why. completed: work done and results. openItems: what is still pending.",
  'facts: every fact line found in the input, copied verbatim (a fact line starts with the word FACT, a space, then a key, "=" and a value).',
  "Keep identifiers, file paths, numbers and names exactly as written. No prose outside the JSON.",
].join("\n");

export const DIGEST_INSTRUCTIONS = [
  "The text is one turn of a conversation: a user message and the assistant's actions and replies that followed.",
  "Condense what was asked, what was done and its result into ONE line.",
  "Preserve specific factual information: identifiers, paths, numbers, names.",
  "Reply with the single line only.",
].join("\n");

export type PromptParts = {
  kind: PromptKind;
  /** Replaces the default instructions when non-empty (settings.customPrompt). */
  instructions: string;
  /** Per-compaction instructions, appended. */
  extraInstructions?: string | undefined;
  limits?: string | undefined;
  /** Earlier summaries the model may use to understand the range, not to repeat. */
  context?: string | undefined;
  body: string;
};

/** The instructions of a summary request: the strategy's instructions, the title request, limits. */
function instructionParts(parts: Omit<PromptParts, "context" | "body">): string[] {
  const system = [parts.instructions.trim()];
  // Asked whatever the instructions (a custom prompt included); a reply without it gets a derived title.
  if (parts.kind === "summary") system.push(TITLE_INSTRUCTION);
  if (parts.kind === "structured") system.push(TITLE_FIELD_INSTRUCTION);
  if (parts.kind !== "digest") system.push(CITATION_INSTRUCTION);
  if (parts.limits) system.push(parts.limits);
  if (parts.extraInstructions?.trim()) {
    system.push(`Additional instructions for this summary:\n${parts.extraInstructions.trim()}`);
  }
  return system;
}

/** Builds a summary-model request: the instructions as the system prompt, then the material as a user message. */
export function buildPromptMessages(parts: PromptParts): ChatMessage[] {
  const user: string[] = [];
  if (parts.context?.trim()) {
    user.push(`${CONTEXT_INTRO}\n${parts.context.trim()}`);
  }
  user.push(parts.body);
  return [
    { role: "system", content: instructionParts(parts).join("\n\n") },
    { role: "user", content: user.join("\n\n") },
  ];
}

/**
 * A summary request that is the chat request's prefix (`prefix`, the chat request's own
 * messages in its order) followed by one message: first the line naming the material
 * (what tells a model that this turn asks for a summary, not a reply), then the same
 * instructions the compact framing puts in its system prompt.
 */
export function buildSharedMessages(prefix: readonly ChatMessage[], rangeLine: string, parts: Omit<PromptParts, "context" | "body">): ChatMessage[] {
  return [...prefix, { role: "user", content: `${rangeLine}\n\n${instructionParts(parts).join("\n\n")}` }];
}

export function lengthLimit(maxTokens: number, maxChars?: number): string {
  return maxChars
    ? `Keep the result under ${maxChars} characters.`
    : `Keep the result under about ${Math.round(maxTokens * 0.75)} words.`;
}
