// A tool call and its result are one card. The model's reply that asks for tools is
// followed by one tool message per call, matched to its call by id (their order may
// differ from the calls', and a reply may ask for the same tool twice). The results are
// drawn inside the reply's card, so they get no row of their own.
import type { MessageView, TimelineItem, ToolOutcome } from "@/lib/views";

export type ToolMessage = Extract<MessageView, { role: "tool" }>;
type AssistantMessage = Extract<MessageView, { role: "assistant" }>;

export type ToolPairing = {
  /** Per reply that called tools (by message id): each call's result by call id. */
  results: Map<string, Map<string, ToolMessage>>;
  /** Tool messages drawn inside their call's card, mapped to that reply's message id. */
  folded: Map<string, string>;
  /** Replies whose calls may still get results: nothing but their own results follows them. */
  open: Set<string>;
};

/**
 * Pairs the results with their calls among `items` (in timeline order). A result counts
 * only among the tool messages that directly follow its reply: call ids are unique within
 * one reply, not across a conversation.
 */
export function pairToolResults(items: readonly TimelineItem[]): ToolPairing {
  const results = new Map<string, Map<string, ToolMessage>>();
  const folded = new Map<string, string>();
  const open = new Set<string>();
  let caller: { reply: AssistantMessage; ids: Set<string>; found: Map<string, ToolMessage> } | null = null;
  for (const item of items) {
    // A clearing's notice (or an undone record) stands before the messages it names and hides none: it never parts a call from its results.
    if ((item.type === "compaction" && item.compaction.kind === "clearing") || item.type === "undone") continue;
    const message = item.type === "message" ? item.message : null;
    if (message?.role === "tool" && caller) {
      if (caller.ids.has(message.toolCallId) && !caller.found.has(message.toolCallId)) {
        caller.found.set(message.toolCallId, message);
        folded.set(message.id, caller.reply.id);
      }
      continue;
    }
    caller = null;
    if (message?.role === "assistant" && message.toolCalls.length > 0) {
      caller = { reply: message, ids: new Set(message.toolCalls.map((call) => call.id)), found: new Map() };
      results.set(message.id, caller.found);
    }
  }
  if (caller) open.add(caller.reply.id);
  return { results, folded, open };
}

export type ToolCallStatus = ToolOutcome | "awaiting_approval" | "running" | "no_result";

export const STATUS_LABELS: Record<ToolCallStatus, string> = {
  awaiting_approval: "awaiting approval",
  running: "running",
  done: "done",
  failed: "failed",
  denied: "denied",
  no_result: "no result",
};

// Built-in tools answer a failure with a text starting so (lib/llm/tools.ts); results
// stored before outcomes were recorded are judged by it.
const LEGACY_ERROR = /^Error: /;

/**
 * Where a call stands. Without a result it is running while a turn still runs on the
 * reply it belongs to (`open`), or waits for the user's answer (`awaiting`: the turn asked
 * for approval of it); a call that never got one (a stopped turn) says so.
 */
export function toolCallStatus(result: ToolMessage | undefined, open: boolean, turnRunning: boolean, awaiting = false): ToolCallStatus {
  if (!result) return open && turnRunning ? (awaiting ? "awaiting_approval" : "running") : "no_result";
  if (result.toolOutcome) return result.toolOutcome;
  return LEGACY_ERROR.test(result.content) ? "failed" : "done";
}

/** The server that ran a call, as the card names it; null until its result says. */
export function serverLabel(result: ToolMessage | undefined): string | null {
  if (!result) return null;
  return result.toolServer ?? "built-in";
}

export type FormattedArguments = { text: string; json: boolean; empty: boolean };

/** The arguments as pretty JSON; text that is not JSON is shown as sent. */
export function formatArguments(raw: string): FormattedArguments {
  const trimmed = raw.trim();
  if (!trimmed) return { text: "", json: true, empty: true };
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const empty = parsed !== null && typeof parsed === "object" && Object.keys(parsed).length === 0;
    return { text: JSON.stringify(parsed, null, 2), json: true, empty };
  } catch {
    return { text: raw, json: false, empty: false };
  }
}

/** Beyond either bound a block of text starts collapsed to its first lines. */
export const COLLAPSE_LINES = 12;
export const COLLAPSE_CHARS = 1200;

export type Clip = { head: string; hiddenLines: number; hiddenChars: number } | null;

/** The head shown while a long text is collapsed, and what it leaves out; null when the text is short enough to show whole. */
export function clipText(text: string, lines = COLLAPSE_LINES, chars = COLLAPSE_CHARS): Clip {
  const all = text.split("\n");
  if (all.length <= lines && text.length <= chars) return null;
  let head = all.slice(0, lines).join("\n");
  if (head.length > chars) head = head.slice(0, chars);
  return { head, hiddenLines: Math.max(0, all.length - head.split("\n").length), hiddenChars: text.length - head.length };
}

/** The same results, message for message: a reply's card is drawn again only when one of its results changed. */
export function sameResults(a: ReadonlyMap<string, ToolMessage> | undefined, b: ReadonlyMap<string, ToolMessage> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.size !== b.size) return false;
  for (const [id, message] of a) if (b.get(id) !== message) return false;
  return true;
}
