import { elideMiddle } from "./elide";
import { formatCount } from "./render";
import type { ClearingRecord, TokenCounter, Transcript, TranscriptMessage } from "./types";

// A tool result is stored whole; what the model sees of it may be less. Two rules, both
// in the request only (docs/design.md, "Tool output"):
// - a result over the bound (ContextBudget.toolResultMaxTokens) is sent as its head and
//   tail with a marker saying how much was left out and how to read it whole;
// - a result under an active clearing is sent as a one-line note with its size.
// The engine measures, selects and summarizes the results as shown, so what it counts
// is what it sends, and a summary written over a cleared result reads the note.

type ToolMessage = Extract<TranscriptMessage, { role: "tool" }>;

/** The marker inside a cut result: how much of it the model does not see, and how to read it. */
export function cutMarker(elidedTokens: number, seq: number): string {
  return `[… ${formatCount(elidedTokens)} tokens of this result left out; open_history #${seq} reads it whole]`;
}

/** What a cleared result is replaced by: one line with its size. */
export function clearedNote(message: Pick<ToolMessage, "seq" | "toolName">, storedTokens: number): string {
  const what = message.toolName ? `${message.toolName} result` : "tool result";
  return `[${what} of ${formatCount(storedTokens)} tokens cleared from view; open_history #${message.seq} reads it whole]`;
}

/** Whether `clearing` replaces this message by its note. */
export function clears(clearing: Pick<ClearingRecord, "fromSeq" | "toSeq" | "keptSeqs">, message: TranscriptMessage): boolean {
  return message.role === "tool" && message.seq >= clearing.fromSeq && message.seq <= clearing.toSeq && !clearing.keptSeqs.includes(message.seq);
}

// The view of a message depends only on the message and the rule applied, and a long
// result is cut again on every measure of a turn: each view is remembered per message.
const remembered = new WeakMap<TranscriptMessage, Map<string, ToolMessage>>();

function rememberedView(message: ToolMessage, key: string, make: () => ToolMessage): ToolMessage {
  let views = remembered.get(message);
  if (!views) remembered.set(message, (views = new Map()));
  let view = views.get(key);
  if (!view) views.set(key, (view = make()));
  return view;
}

/** Role and id framing of a stored result: its count less its content's. */
function framingOf(message: ToolMessage, tokens: TokenCounter): number {
  return Math.max(0, message.tokens - tokens.count(message.content));
}

/** The whole result's cost, also for one that is already shown otherwise. */
export function storedTokensOf(message: TranscriptMessage): number {
  return message.role === "tool" && message.shown ? message.shown.storedTokens : message.tokens;
}

export function clearedView(message: ToolMessage, tokens: TokenCounter): ToolMessage {
  if (message.shown?.as === "cleared") return message;
  return rememberedView(message, "cleared", () => {
    const storedTokens = storedTokensOf(message);
    const content = clearedNote(message, storedTokens);
    const framing = message.shown ? message.tokens - tokens.count(message.content) : framingOf(message, tokens);
    return { ...message, content, tokens: framing + tokens.count(content), shown: { as: "cleared", storedTokens } };
  });
}

function cutView(message: ToolMessage, maxTokens: number, tokens: TokenCounter, preserveFacts: boolean): ToolMessage {
  if (message.shown || message.tokens <= maxTokens) return message;
  return rememberedView(message, `cut:${maxTokens}:${preserveFacts}`, () => {
    const framing = framingOf(message, tokens);
    const content = elideMiddle(message.content, Math.max(1, maxTokens - framing), tokens, preserveFacts, (elided) => cutMarker(elided, message.seq));
    return { ...message, content, tokens: framing + tokens.count(content), shown: { as: "cut", storedTokens: message.tokens } };
  });
}

/**
 * The transcript as the model sees its tool results: cleared ones as notes, oversized
 * ones cut. Idempotent (a result already shown otherwise is left as it is), and the
 * same transcript object when nothing changes.
 */
export function toolView(transcript: Transcript, maxResultTokens: number, tokens: TokenCounter, preserveFacts: boolean): Transcript {
  const clearings = transcript.clearings ?? [];
  let changed = false;
  const messages = transcript.messages.map((message) => {
    if (message.role !== "tool" || message.shown?.as === "cleared") return message;
    const view = clearings.some((clearing) => clears(clearing, message)) ? clearedView(message, tokens) : cutView(message, maxResultTokens, tokens, preserveFacts);
    if (view !== message) changed = true;
    return view;
  });
  return changed ? { ...transcript, messages } : transcript;
}

/** The transcript once `clearing` is active: the clearings it absorbs leave, its results become notes. */
export function applyClearing(transcript: Transcript, clearing: ClearingRecord, tokens: TokenCounter): Transcript {
  const absorbed = new Set(clearing.childIds);
  const clearings = [...(transcript.clearings ?? []).filter((c) => !absorbed.has(c.id)), clearing].sort((a, b) => a.fromSeq - b.fromSeq);
  const messages = transcript.messages.map((message) => (message.role === "tool" && clears(clearing, message) ? clearedView(message, tokens) : message));
  return { ...transcript, clearings, messages };
}
