// A summary request that is the chat request's prefix plus one instruction. Providers
// cache a request's prefix (OpenAI: 1,024 tokens and more, in 128-token steps; Anthropic
// and Gemini alike), so a summary request that starts with the same tool definitions,
// system prompt, summaries and messages as the chat request before it is served mostly
// from that cache; one that wraps the material in its own framing pays for all of it.
import { sharedMergeLine, sharedRangeLine, type SharedAnchor } from "./framing";
import { budgetFor, calibrationOf, contextWindowFor, toServerTokens, type MeasureDeps } from "./measure";
import { assembleEntries, entryTokens, sentToModel, type Entry } from "./request";
import type { CompressionSettings } from "./settings";
import type { ChatMessage, CompactionRecord, RequestTool, Transcript } from "./types";

/** What a summary request shares with the chat request, and the line that names its material in it. */
export type SharedPrefix = {
  /** The chat request's messages in its order (without the budget note, which only ever ends a request). */
  messages: ChatMessage[];
  tools?: readonly RequestTool[] | undefined;
  /** Names the material by its place in `messages` (and, for a model that reads, by its first and last message). */
  rangeLine: string;
  /** Summaries in view besides the material: facts only they hold are not the new summary's. */
  otherSummaries: CompactionRecord[];
  /** What the prefix shows of every summary besides the material (stand-ins included): a line copied from them is a copy, not a summary. */
  background: string[];
  /** Texts of the messages after the material (they stay in the request): facts only they hold are not the summary's. */
  after: string[];
};

/** What a summary or merge replaces: messages by seq and summaries by id. */
export type Material = { kind: "summary"; fromSeq: number; toSeq: number; seqs: readonly number[]; summaries: readonly CompactionRecord[] } | { kind: "merge"; summaries: readonly CompactionRecord[] };

const FIRST_WORDS = 8;

function opening(text: string): string {
  const words = text.replace(/\s+/g, " ").trim().split(" ");
  return words.length > FIRST_WORDS ? `${words.slice(0, FIRST_WORDS).join(" ")}…` : words.join(" ");
}

/** How the instruction names a message of the prefix to a model that reads it. */
function anchorOf(entry: Entry): SharedAnchor {
  const chat = entry.chat;
  if (entry.source === "summary") return { role: "summary", text: opening((chat.content ?? "").split("\n", 1)[0] ?? "") };
  if (chat.role === "assistant" && !chat.content?.trim() && chat.tool_calls?.length) return { role: "assistant", calls: chat.tool_calls[0]!.function.name };
  return { role: chat.role, text: opening(chat.content ?? "") };
}

/**
 * Below this window the compact framing is used. Measured at 4k (bench/engine-matrix.ts,
 * every summarizer behaviour): shared requests made more summary calls and kept 527 of
 * 720 planted facts in view, the compact framing 559, with no lower cache share. At 8k and
 * above the shared request keeps every fact and most of each summary request comes from
 * the provider's cache.
 */
export const MIN_SHARED_WINDOW = 6_000;

/**
 * The chat request's prefix for a summary of `material`, or null when the compact
 * framing must be used instead: a window under MIN_SHARED_WINDOW; the request with the
 * instruction and the reply would not fit the model's window (the shared request carries the whole conversation in
 * view, not only the material), the chat request itself would have to be cut, or the
 * material is not one unbroken run of the request (a pinned message inside it, a
 * message the request leaves out).
 */
export function sharedPrefix(
  transcript: Transcript,
  settings: CompressionSettings,
  deps: MeasureDeps,
  material: Material,
  room: { instructionTokens: number; replyTokens: number },
): SharedPrefix | null {
  const entries = assembleEntries(transcript, { ...settings, budgetNote: false }, deps);
  const seqs = new Set(material.kind === "summary" ? material.seqs : []);
  const ids = new Set(material.summaries.map((c) => c.id));
  const inMaterial = (entry: Entry) => (entry.source === "message" && entry.seq !== undefined && seqs.has(entry.seq)) || (entry.compactionId !== undefined && ids.has(entry.compactionId));
  const start = entries.findIndex(inMaterial);
  const end = entries.findLastIndex(inMaterial);
  if (start < 0) return null;
  const span = entries.slice(start, end + 1);
  if (!span.every(inMaterial)) return null;
  // A tool result sits in the request as an entry of its own; every message and summary of the material must be there.
  const sent = transcript.messages.filter((message) => seqs.has(message.seq) && sentToModel(message)).length;
  if (span.length !== sent + ids.size) return null;

  const calibration = calibrationOf(transcript.messages);
  const ours = entryTokens(entries) + transcript.toolTokens;
  if (toServerTokens(ours, calibration) > budgetFor(transcript, settings, deps.models).hardLimit) return null;
  const window = contextWindowFor(transcript.model, settings, deps.models);
  if (window < MIN_SHARED_WINDOW) return null;
  if (toServerTokens(ours + room.instructionTokens, calibration) + room.replyTokens > window) return null;

  // A merge's children include a summary no request has carried yet (the one this pass
  // just wrote, or the merge before): from there on nothing is cached, so what follows
  // them would only be paid for in full. A summary of messages keeps the messages after
  // its range: they were in the chat request just sent, and cost little from the cache.
  // A reply that ends the conversation was not in that request (it answered it): after a
  // reply, the summary request is the chat request just sent plus the instruction.
  const last = entries.at(-1)!.chat;
  const answered = entries.length - 1 > end && last.role === "assistant" && !last.tool_calls?.length;
  const kept = material.kind === "merge" ? entries.slice(0, end + 1) : answered ? entries.slice(0, -1) : entries;
  const after = kept.length - 1 - end;
  const named = {
    count: span.length,
    after,
    first: anchorOf(span[0]!),
    last: anchorOf(span.at(-1)!),
  };
  const rangeLine =
    material.kind === "summary"
      ? sharedRangeLine({ ...named, fromSeq: material.fromSeq, toSeq: material.toSeq, folded: material.summaries })
      : sharedMergeLine({ ...named, children: material.summaries });
  return {
    messages: kept.map((entry) => entry.chat),
    ...(transcript.tools?.length ? { tools: transcript.tools } : {}),
    rangeLine,
    otherSummaries: transcript.compactions.filter((c) => c.kind === "summary" && c.outOfView === undefined && !ids.has(c.id)),
    background: transcript.compactions.filter((c) => c.kind === "summary" && !ids.has(c.id)).map((c) => c.outOfView ?? c.summary),
    after: (material.kind === "merge" ? kept : entries).slice(end + 1).map((entry) => (typeof entry.chat.content === "string" ? entry.chat.content : "")),
  };
}
