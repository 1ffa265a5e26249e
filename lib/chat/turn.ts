// The chat loop, for a turn and for Continue: let compression run, build the request
// from the active context, stream the reply, persist it with its usage, run tool
// calls and loop until the model answers in text.
import { withoutToolRecall, type CompressionSettings } from "../compression/settings";
import { assistantChat } from "../compression/request";
import type { CallUsage, ToolCall, Transcript } from "../compression/types";
import { getDb } from "../db/client";
import { appendMessages, appendReply, extendReply, noteUnanswered, type ReplyExtension } from "../db/messages";
import type { MessageDraft, ReplyDraft } from "../db/message-drafts";
import { keepStored } from "../db/context-cache";
import { attemptRecordToView, toMessageView, toTranscriptMessage } from "../db/mappers";
import { readReplyTemperature } from "../db/model-settings";
import { listAllowedTools } from "../db/tool-allowances";
import { conversationChangeState } from "../db/turn-lease";
import { AppError } from "../errors";
import { ModelError, streamChat } from "../llm/client";
import { modelCatalog } from "../llm/models";
import { splitUnopenedThinking } from "../llm/reasoning";
import { learnServerWindow } from "./server-window";
import { countMessageTokensAsync } from "../llm/token-pool";
import { logger } from "../log/logger";
import { span, spanSync, startSpan } from "../log/timing";
import {
  activeTranscript,
  compressBeforeCall,
  compressionManager,
  contextMeter,
  scheduleBackgroundCompaction,
} from "./compressor";
import { config } from "../config";
import { recordTurn } from "../server/metrics";
import type { TurnEvent } from "./events";
import { registerTurn } from "./running-turns";
import type { GateMessage, TurnGate } from "./concurrency";
import { NO_TOOLS, toolsForTurn, type TurnToolSet } from "./tools";
import { askApprovals, runDecidedCall } from "./tools/approval";
import { leftOutNotice } from "./tools/window-share";
import { continuationSeparator } from "./join-continuation";
import { recallForTurn } from "./recall";
import { requestOverheadTokens } from "./tool-set";
import { requestImages } from "./image-parts";
import type { RecallBlock } from "../compression/recall";
import type { MessageView } from "../views";

const MAX_TOOL_ROUNDS = 6;

type ReplyBase = {
  /** The conversation's owner, checked by every query the turn makes. */
  userId: string;
  conversationId: string;
  signal?: AbortSignal;
  /** The conversation's turn gate, opened by the caller; closed when the reply ends. */
  gate: TurnGate;
  /** One snapshot of the settings for the whole reply: a change saved meanwhile applies from the next turn, never halfway through this one. */
  settings: CompressionSettings;
};

/** The user's message a new reply answers. */
export type Answering =
  /** A new message, stored by the statement that opened the gate (which also read the turn's settings). */
  | ({ kind: "sent" } & Omit<GateMessage, "settings">)
  /** An edited message, stored after the gate opened and the history was rewound to it. */
  | { kind: "edited"; message: MessageView }
  /** The context's last message, which must be the user's (a retry, a regenerated reply). */
  | { kind: "unanswered" };

export type TurnInput = ReplyBase & { answering: Answering };

/** What the reply is written into: the one thing a turn and a Continue do differently. */
export type ReplyTarget =
  /**
   * A new assistant message answering the context's last user message (a turn, a retry,
   * an edit, a regeneration). It is offered the tools; a reply that calls them is
   * followed by their results and another round.
   */
  | { kind: "new"; answering: Answering }
  /**
   * Continue after Stop: the model gets the conversation with the stopped reply
   * `messageId` (text `partial`) as the assistant's last message, and what it writes is
   * appended to that reply, so the view, the export and the next turn see one reply.
   * No tools are offered: a continuation finishes text that was cut off, and a tool
   * call there would turn a reply the user has been reading into a tool round, which is
   * not what Continue asks for. Not offering them, it does not budget for them either:
   * its request is judged, fitted and measured without their definitions (the meter
   * after it still counts them, for the next turn, which sends them).
   */
  | { kind: "continuation"; messageId: string; partial: string };

export type ReplyInput = ReplyBase & { target: ReplyTarget };

/**
 * Checks that a retry has something to answer (the active context must end with the
 * user's turn) and takes back the failure noted on that message: it is being answered.
 */
async function assertRetryable(userId: string, conversationId: string): Promise<void> {
  const transcript = await activeTranscript(userId, conversationId);
  const last = transcript.messages.at(-1);
  if (!last || last.role !== "user") {
    throw new AppError("invalid_input", "There is no unanswered message to retry.");
  }
  await noteUnanswered(await getDb(), userId, conversationId, last.seq, null);
}

export function runTurn(input: TurnInput): AsyncGenerator<TurnEvent> {
  const { answering, ...reply } = input;
  return streamReply({ ...reply, target: { kind: "new", answering } });
}

/** The tools a target's request offers (fixed for the whole reply), and what they cost in the prompt. */
function offer(input: ReplyInput, settings: CompressionSettings): Promise<TurnToolSet> | TurnToolSet {
  const { target } = input;
  if (target.kind !== "new") return NO_TOOLS;
  // A sent message's statement read the conversation row and the tool servers in use.
  const sent = target.answering.kind === "sent" ? target.answering : null;
  return toolsForTurn({ userId: input.userId, conversationId: input.conversationId, settings, known: sent?.head ?? null, servers: sent?.servers ?? null });
}

/** The user's message the turn answers, or, when it is an earlier one, the check that there is one to answer. */
async function* opening(input: ReplyInput): AsyncGenerator<TurnEvent> {
  if (input.target.kind === "continuation") return;
  const { answering } = input.target;
  if (answering.kind === "unanswered") {
    await assertRetryable(input.userId, input.conversationId);
    return;
  }
  yield { type: "message", message: answering.message };
  if (answering.kind === "sent" && answering.title) yield { type: "title", title: answering.title };
}

type Usage = CallUsage;
type Interruption = { stopped: boolean; failure: ModelError | undefined };

/** Stores what arrived before a Stop or a model failure (only called with some text or thinking). */
async function storeInterrupted(
  input: ReplyInput,
  reply: { text: string; reasoning: string; model: string; requestTokens: number; usage: Usage | undefined },
  { stopped, failure }: Interruption,
): Promise<MessageView | undefined> {
  const { userId, conversationId, target } = input;
  const db = await getDb();
  if (target.kind === "continuation") {
    // Cut short again, the reply stays stopped: still in the model's view, still continuable.
    return extendReply(db, userId, conversationId, target.messageId, extension(reply, "stopped"), countReplyTokens);
  }
  // A stopped reply stays in the context, a failed one does not.
  const stored = await appendReply(db, userId, conversationId, {
    role: "assistant",
    content: reply.text,
    tokenCount: await countReplyTokens(reply.text),
    model: reply.model,
    status: stopped ? "stopped" : "error",
    reasoning: reply.reasoning.trim(),
    ...(reply.usage ? { usage: reply.usage } : {}),
    ...(failure ? { error: failure.message } : {}),
  });
  keepStored(db, conversationId, stored);
  const [partial] = stored.rows;
  return partial && toMessageView(partial);
}

function extension(reply: { text: string; reasoning: string; requestTokens: number; usage: Usage | undefined }, status: ReplyExtension["status"]): ReplyExtension {
  return { text: reply.text, reasoning: reply.reasoning.trim(), status, requestTokens: reply.requestTokens, ...(reply.usage ? { usage: reply.usage } : {}) };
}

/** A reply with no text (stopped while its model thought) is never sent (sentToModel): it costs a request nothing. */
function countReplyTokens(content: string): Promise<number> {
  return content.trim() ? countMessageTokensAsync({ role: "assistant", content }) : Promise.resolve(0);
}

/**
 * One reply, for a turn and for Continue alike: compress (saying so while a summary is
 * written), build the request from the active context, stream the model's answer, store
 * it, run the tool calls it makes and go round again until it answers in text; then
 * the meter and, past the pre-emptive level, background compaction.
 */
export async function* streamReply(input: ReplyInput): AsyncGenerator<TurnEvent> {
  const { userId, conversationId, gate, target } = input;
  // Changes only when the server turns out to serve a smaller window than assumed (learnServerWindow).
  let settings = input.settings;
  const db = await getDb();
  const turn = registerTurn(conversationId, input.signal);
  // The conversation row as the statement storing the user's message left it: the first
  // round's load reads nothing more when this process's copy of the context is at it.
  const known = target.kind === "new" && target.answering.kind === "sent" ? target.answering.head : null;
  try {
    // Fixed for the whole reply, like the settings: null sends none (the server's default).
    // A sent message's statement read it already.
    const [toolSet, temperature] = await Promise.all([
      offer(input, settings),
      target.kind === "new" && target.answering.kind === "sent" ? target.answering.temperature : readReplyTemperature(db, userId, conversationId),
    ]);
    // A model that cannot call tools is not told about the history tools; automatic recall stands in.
    if (toolSet.toolless) settings = withoutToolRecall(settings);
    // The conversation's change version after the last reply, when its statement answered it.
    let versionAfterReply: string | null = null;
    const tools = toolSet.definitions.length > 0 ? toolSet.definitions : undefined;
    yield* opening(input);
    if (toolSet.leftOut) yield { type: "notice", message: leftOutNotice(toolSet.leftOut) };

    // The active context after the last reply, for the meter: what a fresh load would give.
    let context: Transcript | undefined;
    // Found once, for the turn's first request, and sent with every round of the turn:
    // the rounds then share their prefix up to the tool results they add.
    let recall: RecallBlock | undefined;
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
        known: round === 0 ? known : null,
        offered: toolSet,
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
      if (round === 0 && target.kind === "new") recall = await span("recall", () => recallForTurn(userId, conversationId, transcript, settings));
      const built = spanSync("build", () => compressionManager().buildRequest(transcript, settings, recall));
      const { messages, breakdown } = built;
      const model = transcript.model;
      const images = await span("images", () => requestImages(db, { userId, conversationId, model }, built));
      // Our count of the whole request as the server will count it (tool definitions
      // included when offered), so that its reported prompt_tokens over this figure is
      // the tokenizer factor the next measurement applies. The request was assembled
      // from stored counts (each message's, the summaries', the overhead's), so their
      // sum is countRequestTokens(messages, tools) without tokenizing it all again.
      const requestTokens = breakdown.systemTokens + breakdown.summaryTokens + breakdown.messageTokens + breakdown.toolTokens;
      yield { type: "assistant_start", model };

      let text = "";
      let reasoning = "";
      let toolCalls: ToolCall[] = [];
      let usage: Usage | undefined;
      let failure: ModelError | undefined;
      const endModel = startSpan("model");
      try {
        for await (const event of streamChat({
          model,
          messages,
          ...(tools ? { tools } : {}),
          ...(temperature !== null ? { temperature } : {}),
          ...(images ? { images } : {}),
          signal: turn.signal,
          timeoutMs: config().STRATA_MODEL_TIMEOUT_MS,
          cacheScope: conversationId,
        })) {
          if (event.type === "text") {
            // The space between a stopped reply and its continuation goes out with the first text.
            const delta = text === "" && target.kind === "continuation" ? continuationSeparator(target.partial, event.delta) + event.delta : event.delta;
            text += delta;
            yield { type: "delta", text: delta };
          } else if (event.type === "reasoning") {
            reasoning += event.delta;
            yield { type: "reasoning", text: event.delta };
          } else if (event.type === "tool_calls" && tools) {
            // A server that repeats a call id would get a request with two results for
            // one call next time, which APIs reject: the first call of each id runs.
            toolCalls = event.calls.filter((call, index, calls) => calls.findIndex((other) => other.id === call.id) === index);
          } else if (event.type === "usage") {
            usage = { promptTokens: event.promptTokens, cachedTokens: event.cachedTokens, completionTokens: event.completionTokens };
          }
        }
      } catch (error) {
        if (!(error instanceof ModelError)) throw error;
        failure = error;
      }
      endModel();
      // A reply that began inside a thinking block its template opened shows its closing
      // tag only at the end: the stored reply is the answer after it (the stream showed it all).
      const unopened = reasoning || target.kind === "continuation" ? null : splitUnopenedThinking(text);
      if (unopened) ({ text, reasoning } = unopened);

      const stopped = turn.signal.aborted;
      if (stopped || failure) {
        // Keep whatever arrived: a reply stopped while its model was still thinking keeps
        // the thinking the user watched (it has no answer, so the model's requests leave it out).
        if (text || reasoning.trim()) {
          const partial = await storeInterrupted(input, { text, reasoning, model, requestTokens, usage }, { stopped, failure });
          if (partial) yield { type: "message", message: partial };
        } else if (failure && !stopped && target.kind === "new" && round === 0) {
          // Nothing arrived: the user's message waits for Retry, and says why after a reload too.
          const asked = transcript.messages.at(-1);
          if (asked?.role === "user") await noteUnanswered(db, userId, conversationId, asked.seq, failure.message);
        }
        recordTurn(stopped ? "stopped" : "error", usage);
        if (failure && !stopped) {
          logger.warn({ conversationId, kind: failure.kind, err: failure.message }, "model call failed");
          // A failed continuation leaves the reply stopped, to be continued again; Retry answers a user's message.
          yield { type: "error", message: failure.message, retryable: target.kind === "new" };
        }
        return;
      }

      recordTurn("complete", usage);
      const previous = transcript.messages.flatMap((message) => (message.role === "assistant" && message.usage ? [message.usage] : [])).at(-1);
      const learned = usage ? await learnServerWindow(db, userId, { model, promptTokens: usage.promptTokens, requestTokens }, previous, settings) : null;
      if (learned) {
        settings = learned.settings;
        yield { type: "notice", message: learned.notice };
      }
      if (target.kind === "continuation") {
        const view = await span("append", () => extendReply(db, userId, conversationId, target.messageId, extension({ text, reasoning, requestTokens, usage }, "complete"), countReplyTokens));
        yield { type: "message", message: view };
        // The reply changed in place and the request counted no tool definitions: the meter loads the context afresh.
        break;
      }
      const assistantDraft: ReplyDraft = {
        role: "assistant",
        content: text,
        tokenCount: await span("count", () => countMessageTokensAsync(assistantChat(text, toolCalls))),
        model,
        status: "complete",
        toolCalls,
        requestTokens,
        reasoning: reasoning.trim(),
        ...(usage ? { usage } : {}),
      };
      // The last reply of the turn closes the gate in the statement that stores it.
      const last = toolCalls.length === 0;
      const [assistantRow] = await span("append", async () => {
        if (last) {
          const final = await gate.storeFinalReply(assistantDraft);
          versionAfterReply = final.version;
          return [final.message];
        }
        const stored = await appendReply(db, userId, conversationId, assistantDraft);
        keepStored(db, conversationId, stored);
        return stored.rows;
      });
      if (assistantRow) {
        const [added, view] = spanSync("view", () => [toTranscriptMessage(assistantRow), toMessageView(assistantRow)] as const);
        context = { ...transcript, messages: [...transcript.messages, added], totalMessageCount: assistantRow.seq };
        yield { type: "message", message: view };
      }
      if (last) break;

      // Calls that need the user's approval wait for it (all of the reply's at once);
      // a denied one, or one Stop reached before it started, is stored without running.
      const approvalTimeoutMs = config().STRATA_TOOL_APPROVAL_TIMEOUT_MS;
      const approvals = yield* askApprovals(toolSet, toolCalls, {
        userId,
        conversationId,
        signal: turn.signal,
        timeoutMs: approvalTimeoutMs,
        allowedTools: () => listAllowedTools(db, userId, conversationId),
      });
      // The calls of one reply run at once; their results are stored in call order.
      const toolDrafts: MessageDraft[] = await Promise.all(toolCalls.map(async (call): Promise<MessageDraft> => {
        const result = await runDecidedCall(toolSet, call, { userId, conversationId, settings, signal: turn.signal }, approvals, approvalTimeoutMs);
        return {
          role: "tool",
          content: result.content,
          toolCallId: call.id,
          toolName: call.name,
          outcome: result.outcome,
          durationMs: result.durationMs,
          ...(result.server ? { server: result.server } : {}),
          ...(result.parts ? { parts: result.parts } : {}),
          tokenCount: await countMessageTokensAsync({ role: "tool", content: result.content, tool_call_id: call.id }),
        };
      }));
      for (const message of await appendMessages(db, userId, conversationId, toolDrafts)) yield { type: "message", message };
      // The tool results are not in it: after the last round, the meter loads the context afresh.
      context = undefined;
      // Stopped during the calls: every call has its result stored, and no model call follows.
      if (turn.signal.aborted) break;
    }

    // Measured as the next turn will send it: with the history tools once something is
    // compressed, even when this turn compressed first and so did not offer them yet.
    const loaded = context ?? (await activeTranscript(userId, conversationId, settings));
    const window = modelCatalog.contextWindow(loaded.model, settings.contextWindowOverrides);
    const after = { ...loaded, toolTokens: Math.max(loaded.toolTokens, requestOverheadTokens(settings, loaded.compactions.length > 0, window)) };
    // Read side by side when the last statement did not answer the version: it costs no extra wait.
    const [meter, version] = await span("meter", () =>
      Promise.all([
        contextMeter(userId, conversationId, settings, after),
        versionAfterReply ?? conversationChangeState(db, userId, conversationId).then((state) => state.version),
      ]),
    );
    yield { type: "done", context: meter, version };
    // Only when the context is past the pre-emptive level: a job (and its transcript
    // load) for every turn would cost more than the turn itself.
    if (compressionManager().dueAfterReply(after, settings)) {
      spanSync("schedule", () => void scheduleBackgroundCompaction(userId, conversationId));
    }
  } finally {
    turn.release();
    await span("close", () => gate.close());
  }
}
