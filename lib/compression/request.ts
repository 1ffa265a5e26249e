import { elideMiddle } from "./elide";
import { breakdownOf, budgetFor, calibrationOf, contextWindowFor, measureTranscript, toServerTokens, type MeasureDeps } from "./measure";
import { compactionsInRequest, formatCount, MESSAGE_OVERHEAD_TOKENS, renderCompactionText, renderedCompactionTokens } from "./render";
import { historyNotice, type RecallBlock } from "./recall";
import type { CompressionSettings } from "./settings";
import type { BuiltRequest, ChatMessage, CompressionLogger, ToolCall, Transcript, TranscriptMessage } from "./types";

type EntrySource = "system" | "summary" | "message" | "note" | "recall";
/** One message of the request: where it came from (a message's seq, a summary's id) and what it costs in our count. */
export type Entry = { chat: ChatMessage; tokens: number; source: EntrySource; seq?: number; compactionId?: string; keep?: boolean };

const MIN_ELIDED_TOKENS = 32;

/** An assistant reply as the model API takes it back (the chat loop counts its tokens in this shape too). */
export function assistantChat(content: string, toolCalls: readonly ToolCall[] | undefined): ChatMessage {
  return toolCalls?.length
    ? {
        role: "assistant",
        content: content || null,
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: "function" as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      }
    : { role: "assistant", content };
}

function toChat(message: TranscriptMessage): ChatMessage {
  switch (message.role) {
    case "assistant":
      return assistantChat(message.content, message.toolCalls);
    case "tool":
      return { role: "tool", content: message.content, tool_call_id: message.toolCallId };
    default:
      return { role: message.role, content: message.content };
  }
}

/**
 * A reply stopped before its answer began holds only the model's thinking (stored beside
 * it, never sent): an assistant message with neither text nor tool calls tells the model
 * nothing, and some servers refuse one.
 */
export function sentToModel(message: TranscriptMessage): boolean {
  return message.role !== "assistant" || message.content.trim() !== "" || (message.toolCalls?.length ?? 0) > 0;
}

/** Summaries sit at their fromSeq; a pinned message inside a range follows its summary. */
function ordered(transcript: Transcript, deps: MeasureDeps): Entry[] {
  const items: { position: number; rank: number; entry: Entry }[] = [];
  for (const compaction of compactionsInRequest(transcript.compactions)) {
    items.push({
      position: compaction.fromSeq,
      rank: 0,
      entry: {
        chat: { role: "system", content: renderCompactionText(compaction) },
        tokens: renderedCompactionTokens(compaction, deps.tokens),
        source: "summary",
        compactionId: compaction.id,
      },
    });
  }
  for (const message of transcript.messages) {
    if (!sentToModel(message)) continue;
    items.push({ position: message.seq, rank: 1, entry: { chat: toChat(message), tokens: message.tokens, source: "message", seq: message.seq } });
  }
  items.sort((a, b) => a.position - b.position || a.rank - b.rank);
  return items.map((item) => item.entry);
}

/**
 * The API rejects a tool result that does not directly follow its call and a call
 * whose results are missing. Summaries can separate them, so repair by dropping.
 */
export function repairToolPairs(entries: Entry[], deps: MeasureDeps): Entry[] {
  const repaired: Entry[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    const chat = entry.chat;
    if (chat.role === "tool") continue; // only reached when not claimed by a call just before it
    if (chat.role !== "assistant" || !chat.tool_calls?.length) {
      repaired.push(entry);
      continue;
    }
    const results: Entry[] = [];
    let next = index + 1;
    while (next < entries.length && entries[next]!.chat.role === "tool") results.push(entries[next++]!);
    const callIds = new Set(chat.tool_calls.map((call) => call.id));
    const answered = new Set(results.map((result) => (result.chat as { tool_call_id: string }).tool_call_id));
    const complete = [...callIds].every((id) => answered.has(id));
    index = next - 1;
    if (complete) {
      repaired.push(entry, ...results.filter((result) => callIds.has((result.chat as { tool_call_id: string }).tool_call_id)));
    } else if (chat.content?.trim()) {
      const content = chat.content;
      repaired.push({ ...entry, chat: { role: "assistant", content }, tokens: deps.tokens.count(content) + MESSAGE_OVERHEAD_TOKENS });
    }
  }
  return repaired;
}

function budgetNoteText(totalTokens: number, contextWindow: number, settings: CompressionSettings): string {
  const used = Math.round((totalTokens / contextWindow) * 100);
  const plan = !settings.enabled
    ? "automatic compression is off"
    : settings.triggerMode === "tokens"
      ? `automatic compression at ${Math.round(settings.threshold * 100)}%`
      : "older messages are compressed automatically";
  return `Context: ${used}% of ${formatCount(contextWindow)} tokens used; ${plan}.`;
}

/**
 * Every entry of the request, in order, before it is made to fit. The history notice
 * follows the system prompt (it appears with the first summary, which changes the
 * request from there on anyway); a recall block goes just before the last user message,
 * after everything a prefix cache could have kept.
 */
export function assembleEntries(transcript: Transcript, settings: CompressionSettings, deps: MeasureDeps, recall?: RecallBlock): Entry[] {
  const entries: Entry[] = [];
  if (transcript.systemPrompt.trim()) {
    entries.push({ chat: { role: "system", content: transcript.systemPrompt }, tokens: transcript.systemPromptTokens, source: "system", keep: true });
  }
  const notice = historyNotice(transcript, settings, contextWindowFor(transcript.model, settings, deps.models));
  if (notice !== null) entries.push({ chat: { role: "system", content: notice }, tokens: deps.tokens.count(notice) + MESSAGE_OVERHEAD_TOKENS, source: "system", keep: true });
  const body = repairToolPairs(ordered(transcript, deps), deps);
  const lastUser = body.findLastIndex((entry) => entry.chat.role === "user");
  if (lastUser >= 0) body[lastUser] = { ...body[lastUser]!, keep: true };
  if (recall && lastUser >= 0) body.splice(lastUser, 0, { chat: { role: "system", content: recall.text }, tokens: recall.tokens, source: "recall" });
  entries.push(...body);
  if (settings.budgetNote) {
    const measured = measureTranscript(transcript, settings, deps);
    const content = budgetNoteText(measured.totalTokens, measured.contextWindow, settings);
    entries.push({ chat: { role: "system", content }, tokens: deps.tokens.count(content) + MESSAGE_OVERHEAD_TOKENS, source: "note" });
  }
  return entries;
}

export function entryTokens(entries: Entry[]): number {
  return entries.reduce((sum, entry) => sum + entry.tokens, 0);
}

/** The hard limit in our count, for the entries alone (tool definitions come off first). */
function entryLimit(transcript: Transcript, settings: CompressionSettings, deps: MeasureDeps): number {
  const { hardLimit } = budgetFor(transcript, settings, deps.models);
  return Math.floor(hardLimit / calibrationOf(transcript.messages).factor) - transcript.toolTokens;
}

/**
 * The request for `transcript` in the server's count (as far as we know it), with an
 * oversized message already cut as buildRequest cuts it, before anything is dropped.
 */
export function requestTokens(transcript: Transcript, settings: CompressionSettings, deps: MeasureDeps): number {
  const entries = assembleEntries(transcript, settings, deps);
  elideOversized(entries, entryLimit(transcript, settings, deps), deps, settings.preserveFactLines);
  return toServerTokens(entryTokens(entries) + transcript.toolTokens, calibrationOf(transcript.messages));
}

/**
 * Drops the budget note, then the oldest messages (an assistant tool call with its
 * results), then — only if that was not enough — the oldest summaries: what summaries
 * say outlives the messages around it. One pass per kind with a running total: this
 * is the last resort for huge transcripts, so it must stay linear.
 */
function dropUntilFits(entries: Entry[], limit: number): { kept: Entry[]; dropped: number } {
  let total = entryTokens(entries);
  if (total <= limit) return { kept: entries, dropped: 0 };
  const removed = new Array<boolean>(entries.length).fill(false);
  let dropped = 0;
  const note = entries.findIndex((entry) => entry.source === "note");
  if (note >= 0) {
    removed[note] = true;
    total -= entries[note]!.tokens;
    dropped++;
  }
  for (const source of ["message", "summary"] as const) {
    const droppable = (entry: Entry) => !entry.keep && entry.source === source && entry.chat.role !== "tool";
    let cursor = 0;
    while (total > limit) {
      while (cursor < entries.length && (removed[cursor] || !droppable(entries[cursor]!))) cursor++;
      if (cursor >= entries.length) break;
      let end = cursor + 1;
      while (end < entries.length && entries[end]!.chat.role === "tool") end++;
      for (let index = cursor; index < end; index++) {
        removed[index] = true;
        total -= entries[index]!.tokens;
      }
      dropped++;
      cursor = end;
    }
  }
  return { kept: entries.filter((_, index) => !removed[index]), dropped };
}

/**
 * A single message larger than half the room (a pasted log, a huge tool result) is
 * cut in its middle before anything else is dropped: its head and tail are worth less
 * than everything it would otherwise push out.
 */
function elideOversized(entries: Entry[], limit: number, deps: MeasureDeps, preserveFacts: boolean): number {
  const half = Math.floor(limit / 2);
  let elided = 0;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.source !== "message" || typeof entry.chat.content !== "string" || entry.tokens <= half) continue;
    if (entryTokens(entries) <= limit) break;
    const content = elideMiddle(entry.chat.content, Math.max(MIN_ELIDED_TOKENS, half - MESSAGE_OVERHEAD_TOKENS), deps.tokens, preserveFacts);
    const tokens = deps.tokens.count(content) + MESSAGE_OVERHEAD_TOKENS;
    if (tokens >= entry.tokens) continue;
    entries[index] = { ...entry, chat: { ...entry.chat, content } as ChatMessage, tokens };
    elided++;
  }
  return elided;
}

function elideLargest(entries: Entry[], excess: number, deps: MeasureDeps, preserveFacts: boolean): boolean {
  let largest = -1;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (typeof entry.chat.content !== "string" || entry.tokens <= MIN_ELIDED_TOKENS) continue;
    if (largest < 0 || entry.tokens > entries[largest]!.tokens) largest = index;
  }
  if (largest < 0) return false;
  const entry = entries[largest]!;
  const content = entry.chat.content as string;
  const target = Math.max(MIN_ELIDED_TOKENS, entry.tokens - excess) - MESSAGE_OVERHEAD_TOKENS;
  const elided = elideMiddle(content, target, deps.tokens, preserveFacts);
  const tokens = deps.tokens.count(elided) + MESSAGE_OVERHEAD_TOKENS;
  if (tokens >= entry.tokens) return false;
  entries[largest] = { ...entry, chat: { ...entry.chat, content: elided } as ChatMessage, tokens };
  return true;
}

/**
 * The one context assembly for every model call. Compaction (process) normally keeps
 * the request under the hard limit; this is the guarantee when it could not: an
 * oversized message is cut in its middle, then the oldest entries are dropped from the
 * request, then the largest remaining content is cut. Nothing here changes the stored
 * conversation.
 */
export function buildRequest(
  transcript: Transcript,
  settings: CompressionSettings,
  deps: MeasureDeps,
  logger?: CompressionLogger,
  recall?: RecallBlock,
): BuiltRequest {
  const calibration = calibrationOf(transcript.messages);
  const budget = budgetFor(transcript, settings, deps.models);
  const limit = entryLimit(transcript, settings, deps);
  // A recall block only ever uses room that is left: with it over the limit, it goes
  // before any message is cut or dropped.
  const withRecall = assembleEntries(transcript, settings, deps, recall);
  const assembled = recall && entryTokens(withRecall) > limit ? withRecall.filter((entry) => entry.source !== "recall") : withRecall;
  const before = entryTokens(assembled);
  let elided = elideOversized(assembled, limit, deps, settings.preserveFactLines);
  const { kept: entries, dropped } = dropUntilFits(assembled, limit);
  while (entryTokens(entries) > limit && elideLargest(entries, entryTokens(entries) - limit, deps, settings.preserveFactLines)) elided++;
  if (dropped > 0 || elided > 0) {
    logger?.warn(
      {
        conversationId: transcript.conversationId,
        tokensBefore: toServerTokens(before + transcript.toolTokens, calibration),
        tokensAfter: toServerTokens(entryTokens(entries) + transcript.toolTokens, calibration),
        hardLimit: budget.hardLimit,
        droppedEntries: dropped,
        elidedEntries: elided,
      },
      "request over the hard limit: entries dropped or elided in the request only",
    );
  }
  const sum = (source: EntrySource[]) => entries.filter((e) => source.includes(e.source)).reduce((total, e) => total + e.tokens, 0);
  return {
    messages: entries.map((entry) => entry.chat),
    seqs: entries.map((entry) => (entry.source === "message" ? (entry.seq ?? null) : null)),
    recallTokens: sum(["recall"]),
    breakdown: breakdownOf(
      { systemTokens: sum(["system", "note", "recall"]), summaryTokens: sum(["summary"]), messageTokens: sum(["message"]), toolTokens: transcript.toolTokens },
      calibration,
      budget.contextWindow,
    ),
  };
}
