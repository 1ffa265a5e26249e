import { contextBudget, type ContextBudget } from "./budget";
import { isToolSession } from "./clearing";
import { historyNoticeTokens } from "./recall";
import { compactionsInRequest, renderedCompactionTokens } from "./render";
import type { CompressionSettings } from "./settings";
import type { Calibration, ContextBreakdown, ModelCatalog, TokenCounter, Transcript, TranscriptMessage } from "./types";

export type MeasureDeps = { tokens: TokenCounter; models: ModelCatalog };

/**
 * Until a server has reported a prompt count, our count is scaled by this: servers
 * count with their own tokenizers (or by characters), and a request that fits by our
 * count can be over the window by theirs. One reported usage replaces it.
 */
export const UNCALIBRATED_FACTOR = 1.2;
/** A reported factor outside this range is a server bug or a cut (below), not a tokenizer. */
const FACTOR_RANGE = { min: 0.5, max: 3 } as const;
/** Below this many prompt tokens a low count proves no cut: no server serves a window that small. */
const MIN_CUT_EVIDENCE_TOKENS = 1024;
/** How much more we must have sent than last time, for a count that did not grow to prove a cut. */
const GREW_BY = 1.05;
/** How much a server's count may wobble between two requests of which the second holds all of the first. */
const COUNT_WOBBLE = 1.01;

type ReportedCall = { promptTokens: number; requestTokens: number };

/**
 * The window a server evidently cut a request to, or null. Some servers (Ollama beyond
 * its num_ctx) drop the start of a request that is too long for them without an error;
 * what they kept is at most their window. Two signs, each beyond what tokenizers do:
 * the server counted fewer than half the tokens we sent, or we sent clearly more than
 * with the previous reply (`previous`, the newest earlier one with usage) and the
 * server counted no more than then.
 */
export function serverCutWindow(call: ReportedCall, previous?: ReportedCall): number | null {
  if (call.requestTokens <= 0 || call.promptTokens < MIN_CUT_EVIDENCE_TOKENS) return null;
  if (call.promptTokens / call.requestTokens < FACTOR_RANGE.min) return call.promptTokens;
  const plateau = previous !== undefined && call.requestTokens >= previous.requestTokens * GREW_BY && call.promptTokens <= previous.promptTokens * COUNT_WOBBLE;
  return plateau ? call.promptTokens : null;
}

export function contextWindowFor(model: string, settings: CompressionSettings, models: ModelCatalog): number {
  return models.contextWindow(model, settings.contextWindowOverrides);
}

/** The budget of this transcript's model, with its system prompt and tool definitions as the fixed part. */
export function budgetFor(
  transcript: Pick<Transcript, "model" | "systemPrompt" | "systemPromptTokens" | "toolTokens" | "messages" | "clearings">,
  settings: CompressionSettings,
  models: ModelCatalog,
): ContextBudget {
  const base = (transcript.systemPrompt.trim() ? transcript.systemPromptTokens : 0) + transcript.toolTokens;
  const window = contextWindowFor(transcript.model, settings, models);
  return contextBudget(window, settings, toServerTokens(base, calibrationOf(transcript.messages)), isToolSession(transcript));
}

/**
 * How the server's count relates to ours: the newest assistant message with reported
 * usage compares the server's prompt count with our count of that same request.
 */
export function calibrationOf(messages: readonly TranscriptMessage[]): Calibration {
  // Read from the newest message back, stopping at the first report that is not a cut:
  // a turn measures its context several times, and a long conversation has thousands
  // of messages. Whether a report is a cut depends on the report before it.
  let newer: Report | undefined;
  for (let index = messages.length - 1; index >= -1; index--) {
    const usage = index >= 0 ? reportOf(messages[index]!) : undefined;
    if (index >= 0 && !usage) continue;
    if (newer) {
      const factor = newer.promptTokens / newer.requestTokens;
      // A cut request says what the server kept, not how it counts.
      if (Number.isFinite(factor) && factor > 0 && serverCutWindow(newer, usage) === null) {
        return { source: "reported", factor: Math.min(FACTOR_RANGE.max, Math.max(FACTOR_RANGE.min, factor)) };
      }
    }
    newer = usage;
  }
  return { source: "margin", factor: UNCALIBRATED_FACTOR };
}

type Report = NonNullable<Extract<TranscriptMessage, { role: "assistant" }>["usage"]>;

/** What a message says the server counted, when it is a reply that reported usage for a request we counted. */
function reportOf(message: TranscriptMessage): Report | undefined {
  return message.role === "assistant" && message.usage && message.usage.requestTokens > 0 ? message.usage : undefined;
}

/** Our count → the server's, as far as we know it. */
export function toServerTokens(ourTokens: number, calibration: Calibration): number {
  return Math.ceil(ourTokens * calibration.factor);
}

/** The server's count → ours (for choosing how many of our messages make up an amount). */
export function toOurTokens(serverTokens: number, calibration: Calibration): number {
  return Math.floor(serverTokens / calibration.factor);
}

export function breakdownOf(
  parts: { systemTokens: number; summaryTokens: number; messageTokens: number; toolTokens: number },
  calibration: Calibration,
  contextWindow: number,
): ContextBreakdown {
  const ours = parts.systemTokens + parts.summaryTokens + parts.messageTokens + parts.toolTokens;
  const totalTokens = toServerTokens(ours, calibration);
  return {
    ...parts,
    correctionTokens: totalTokens - ours,
    totalTokens,
    contextWindow,
    ratio: contextWindow > 0 ? totalTokens / contextWindow : Infinity,
    calibration,
  };
}

/** The context as the transcript stands (the usage ratio the triggers read), before request assembly drops anything. */
export function measureTranscript(
  transcript: Transcript,
  settings: CompressionSettings,
  deps: MeasureDeps,
  // Before and after one change are compared at one calibration: compacting away the replies
  // that reported usage must not read as tokens saved.
  calibration: Calibration = calibrationOf(transcript.messages),
): ContextBreakdown {
  const summaryTokens = compactionsInRequest(transcript.compactions).reduce((sum, c) => sum + renderedCompactionTokens(c, deps.tokens), 0);
  const messageTokens = transcript.messages.reduce((sum, m) => sum + m.tokens, 0);
  const contextWindow = contextWindowFor(transcript.model, settings, deps.models);
  return breakdownOf(
    {
      // The history notice rides with the system prompt once something is compressed.
      systemTokens: (transcript.systemPrompt.trim() ? transcript.systemPromptTokens : 0) + historyNoticeTokens(transcript, settings, contextWindow, deps.tokens),
      summaryTokens,
      messageTokens,
      toolTokens: transcript.toolTokens,
    },
    calibration,
    contextWindow,
  );
}

/** Entries of the context that compression can act on (the system prompt is not one). */
export function contextEntryCount(transcript: Transcript): number {
  return transcript.messages.length + transcript.compactions.length;
}
