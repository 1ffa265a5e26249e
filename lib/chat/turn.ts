// The chat loop: persist the user's message, let compression run, build the request
// from the active context, stream the reply, persist it with its usage, run tool
// calls and loop until the model answers in text.
import type { CompressionSettings } from "../compression/settings";
import { assistantChat } from "../compression/request";
import { COMPRESS_CONTEXT_TOOL, providedSummaryOf } from "../compression/tools";
import type { ToolCall, Transcript } from "../compression/types";
import { getDb } from "../db/client";
import { appendMessages, appendMessageRows, type MessageDraft } from "../db/messages";
import { attemptRecordToView, toMessageView, toTranscriptMessage } from "../db/mappers";
import { readSettings } from "../db/settings";
import { AppError } from "../errors";
import { ModelError, streamChat } from "../llm/client";
import { countMessageTokensAsync } from "../llm/token-pool";
import { runTool } from "../llm/tools";
import { logger } from "../log/logger";
import { span, spanSync, startSpan } from "../log/timing";
import {
  activeTranscript,
  compressBeforeCall,
  compressionManager,
  contextMeter,
  scheduleBackgroundCompaction,
  withTranscript,
} from "./compressor";
import { config } from "../config";
import { recordTurn } from "../server/metrics";
import type { TurnEvent } from "./events";
import { registerTurn } from "./running-turns";
import type { TurnGate } from "./turn-gate";
import { TOOL_DEFINITIONS } from "./tool-set";

const MAX_TOOL_ROUNDS = 6;

export type TurnInput = {
  /** The conversation's owner, checked by every query the turn makes. */
  userId: string;
  conversationId: string;
  /** The user's new message; absent to retry after a failed reply. */
  content?: string;
  signal?: AbortSignal;
  /** The conversation's turn gate, opened by the caller (which may have stored the user's message with it); closed when the turn ends. */
  gate?: TurnGate;
  /** The settings snapshot for the turn when the caller has read them already (startTurn does, checking ownership, unless the gate read them). */
  settings?: CompressionSettings;
};

/** compress_context runs here, against the conversation; every other tool is a built-in. */
async function runToolCall(userId: string, conversationId: string, settings: CompressionSettings, call: ToolCall): Promise<string> {
  if (call.name === COMPRESS_CONTEXT_TOOL.function.name) {
    const summary = providedSummaryOf(call.arguments);
    if (summary === null) return 'Error: the arguments of compress_context must be JSON of the form {"summary": "<text>"}.';
    const applied = await withTranscript(userId, conversationId, settings, (transcript) =>
      compressionManager().applyProvided(transcript, { summary, trigger: "tool" }, settings),
    );
    const created = applied.compactions[0];
    if (!created) {
      const reason = applied.attempts[0]?.reason ?? "nothing to compress";
      return `compress_context did not change the context: ${reason}`;
    }
    return `Context compressed: ${created.coveredMessageCount} messages (${created.coveredTokens} tokens) replaced by your summary (${created.summaryTokens} tokens).`;
  }
  return (await runTool(call)).content;
}

/** Checks that a retry has something to answer: the active context must end with the user's turn. */
async function assertRetryable(userId: string, conversationId: string): Promise<void> {
  const transcript = await activeTranscript(userId, conversationId);
  const last = transcript.messages.at(-1);
  if (!last || last.role !== "user") {
    throw new AppError("invalid_input", "There is no unanswered message to retry.");
  }
}

export async function* runTurn(input: TurnInput): AsyncGenerator<TurnEvent> {
  const { userId, conversationId } = input;
  const db = await getDb();
  const turn = registerTurn(conversationId, input.signal);
  try {
    // One snapshot of the settings for the whole turn: a change saved meanwhile
    // applies from the next turn, never halfway through this one.
    const settings =
      input.settings ?? input.gate?.settings ?? (await span("settings", () => readSettings(db, userId, conversationId))).settings;
    if (input.gate?.userMessage) {
      yield { type: "message", message: input.gate.userMessage };
      if (input.gate.title) yield { type: "title", title: input.gate.title };
    } else if (input.content != null) {
      const content = input.content;
      const tokenCount = await span("count", () => countMessageTokensAsync({ role: "user", content }));
      const [userMessage] = await span("append", () => appendMessages(db, userId, conversationId, [{ role: "user", content, tokenCount }]));
      if (userMessage) yield { type: "message", message: userMessage };
    } else {
      await assertRetryable(userId, conversationId);
    }

    // The active context after the last reply, for the meter: what a fresh load would give.
    let context: Transcript | undefined;
    for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
      // Say "compressing" as soon as a summary starts (or the turn starts waiting for one
      // under way), not when it is done.
      type Status = Extract<TurnEvent, { type: "status" }>;
      let announce: (status: Status) => void = () => {};
      const announced = new Promise<Status>((resolve) => (announce = resolve));
      const endCompress = startSpan("compress");
      const compression = compressBeforeCall(userId, conversationId, settings, {
        signal: turn.signal,
        // Only the first round: a tool round stored its results since.
        known: round === 0 ? (input.gate?.head ?? null) : null,
        onSummarizing: (range) => announce({ type: "status", stage: "compressing", messageCount: range.messageCount }),
        onAwaiting: () => announce({ type: "status", stage: "awaiting_compaction" }),
      });
      const status = await Promise.race([compression.then(() => null), announced]);
      if (status) yield status;
      const applied = await compression;
      endCompress();
      for (const compaction of applied.compactions) yield { type: "compaction", compaction };
      for (const attempt of applied.attempts) {
        if (attempt.outcome === "failed") yield { type: "compaction_failed", attempt: attemptRecordToView(attempt) };
      }
      // Stopped while a summary was being written: no model call follows.
      if (turn.signal.aborted) return;

      const transcript = applied.transcript;
      const { messages, breakdown } = spanSync("build", () => compressionManager().buildRequest(transcript, settings));
      const model = transcript.model;
      // Our count of the whole request as the server will count it (tool definitions
      // included), so that its reported prompt_tokens over this figure is the tokenizer
      // factor the next measurement applies. The request was assembled from stored
      // counts (each message's, the summaries', the tool definitions'), so their sum is
      // countRequestTokens(messages, TOOL_DEFINITIONS) without tokenizing it all again.
      const requestTokens = breakdown.systemTokens + breakdown.summaryTokens + breakdown.messageTokens + breakdown.toolTokens;
      yield { type: "assistant_start", model };

      let text = "";
      let toolCalls: ToolCall[] = [];
      let usage: { promptTokens: number; completionTokens: number } | undefined;
      let failure: ModelError | undefined;
      const endModel = startSpan("model");
      try {
        for await (const event of streamChat({
          model,
          messages,
          tools: TOOL_DEFINITIONS,
          signal: turn.signal,
          timeoutMs: config().STRATA_MODEL_TIMEOUT_MS,
        })) {
          if (event.type === "text") {
            text += event.delta;
            yield { type: "delta", text: event.delta };
          } else if (event.type === "tool_calls") {
            // A server that repeats a call id would get a request with two results for
            // one call next time, which APIs reject: the first call of each id runs.
            toolCalls = event.calls.filter((call, index, calls) => calls.findIndex((other) => other.id === call.id) === index);
          } else if (event.type === "usage") {
            usage = { promptTokens: event.promptTokens, completionTokens: event.completionTokens };
          }
        }
      } catch (error) {
        if (!(error instanceof ModelError)) throw error;
        failure = error;
      }
      endModel();

      const stopped = turn.signal.aborted;
      if (stopped || failure) {
        // Keep whatever arrived; a stopped reply stays in the context, a failed one does not.
        if (text) {
          const [partial] = await appendMessages(db, userId, conversationId, [
            {
              role: "assistant",
              content: text,
              tokenCount: await countMessageTokensAsync({ role: "assistant", content: text }),
              model,
              status: stopped ? "stopped" : "error",
              ...(failure ? { error: failure.message } : {}),
            },
          ]);
          if (partial) yield { type: "message", message: partial };
        }
        recordTurn(stopped ? "stopped" : "error", usage?.promptTokens);
        if (failure && !stopped) {
          logger.warn({ conversationId, kind: failure.kind, err: failure.message }, "model call failed");
          yield { type: "error", message: failure.message, retryable: true };
        }
        return;
      }

      const assistantDraft: MessageDraft = {
        role: "assistant",
        content: text,
        tokenCount: await span("count", () => countMessageTokensAsync(assistantChat(text, toolCalls))),
        model,
        status: "complete",
        toolCalls,
        requestTokens,
        ...(usage ? { usage } : {}),
      };
      recordTurn("complete", usage?.promptTokens);
      // The last reply of the turn closes the gate in the statement that stores it.
      const last = toolCalls.length === 0;
      const [assistantRow] = await span("append", async () =>
        last && input.gate ? [await input.gate.appendFinalReply(assistantDraft)] : appendMessageRows(db, userId, conversationId, [assistantDraft]),
      );
      if (assistantRow) {
        const [added, view] = spanSync("view", () => [toTranscriptMessage(assistantRow), toMessageView(assistantRow)] as const);
        context = { ...transcript, messages: [...transcript.messages, added], totalMessageCount: assistantRow.seq };
        yield { type: "message", message: view };
      }
      if (last) break;

      const toolDrafts: MessageDraft[] = [];
      for (const call of toolCalls) {
        const result = await runToolCall(userId, conversationId, settings, call);
        toolDrafts.push({
          role: "tool",
          content: result,
          toolCallId: call.id,
          toolName: call.name,
          tokenCount: await countMessageTokensAsync({ role: "tool", content: result, tool_call_id: call.id }),
        });
      }
      for (const message of await appendMessages(db, userId, conversationId, toolDrafts)) yield { type: "message", message };
      // The tool results are not in it: after the last round, the meter loads the context afresh.
      context = undefined;
    }

    const after = context ?? (await activeTranscript(userId, conversationId));
    yield { type: "done", context: await span("meter", () => contextMeter(userId, conversationId, settings, after)) };
    // Only when the context is past the pre-emptive level: a job (and its transcript
    // load) for every turn would cost more than the turn itself.
    if (compressionManager().dueAfterReply(after, settings)) {
      spanSync("schedule", () => void scheduleBackgroundCompaction(userId, conversationId));
    }
  } finally {
    turn.release();
    await span("close", async () => input.gate?.close());
  }
}
