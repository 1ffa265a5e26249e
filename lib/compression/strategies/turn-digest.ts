import { formatCitation } from "../citations";
import { SEPARATOR, turnHeader, withoutFraming } from "../framing";
import { mapWithConcurrency } from "../limiter";
import { buildPromptMessages, DIGEST_INSTRUCTIONS } from "../prompts";
import { callSummaryModel, SummaryFailure } from "../summary-call";
import { formatTranscript } from "../transcript-format";
import type { TranscriptMessage } from "../types";
import { mergeWithModel } from "./shared";
import type { CompressionStrategy } from "./types";

const DIGEST_MAX_TOKENS = 200;

/** A turn is a user message and everything up to the next one (an episode: the unit a digest line describes). */
export function splitIntoTurns(messages: TranscriptMessage[]): TranscriptMessage[][] {
  const turns: TranscriptMessage[][] = [];
  for (const message of messages) {
    const current = turns[turns.length - 1];
    if (message.role === "user" || !current) turns.push([message]);
    else current.push(message);
  }
  return turns;
}

/**
 * Per-turn compression: one line per turn, the calls running
 * concurrently under digestConcurrency. All or nothing: the first failed digest
 * cancels the rest and fails the attempt.
 */
export const turnDigestStrategy: CompressionStrategy = {
  name: "turn_digest",
  async summarize(input) {
    const turns = splitIntoTurns(input.messages);
    const siblings = new AbortController();
    const signal = input.signal ? AbortSignal.any([siblings.signal, input.signal]) : siblings.signal;
    const instructions = input.settings.customPrompt.trim()
      ? `${DIGEST_INSTRUCTIONS}\n\n${input.settings.customPrompt.trim()}`
      : DIGEST_INSTRUCTIONS;
    let lines: string[];
    try {
      lines = await mapWithConcurrency(turns, input.settings.digestConcurrency, async (turn) => {
        const { text } = await callSummaryModel({
          summarizer: input.summarizer,
          model: input.model,
          messages: buildPromptMessages({
            kind: "digest",
            instructions,
            extraInstructions: input.instructions,
            body: [turnHeader(turn[0]!.seq, turn[turn.length - 1]!.seq), SEPARATOR, formatTranscript(turn), SEPARATOR].join("\n"),
          }),
          maxTokens: Math.min(DIGEST_MAX_TOKENS, input.maxTokens),
          temperature: input.settings.summaryTemperature,
          // The pass deadline (in `signal`) bounds all digests together.
          timeoutMs: input.settings.summaryTimeoutMs,
          signal,
        });
        // A copied header would otherwise be the "first line" and the whole digest of the turn.
        const line = withoutFraming(text).split("\n").find((candidate) => candidate.trim())?.trim() ?? "";
        return `${formatCitation([{ from: turn[0]!.seq, to: turn[turn.length - 1]!.seq }])} ${line}`;
      });
    } catch (error) {
      siblings.abort();
      if (error instanceof SummaryFailure) throw new SummaryFailure(`turn digest failed: ${error.reason}`, error.detail);
      throw error;
    }
    return { summary: lines.map((line, index) => `${index + 1}. ${line}`).join("\n"), model: input.model };
  },
  merge: mergeWithModel,
};
