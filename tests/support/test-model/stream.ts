// How the test model re-sends an answer: it reads the whole answer (the demo server
// behind it answers at once, a triggered reply is rendered here the same way), lets a
// fault replace the reply, and streams it again at the pace the test set, in its own
// chunks. Chunk shapes follow OpenAI's chat.completion.chunk, as the demo server writes them.
import type http from "node:http";
import type { Reply } from "../../../lib/llm/demo-server/behaviour";
import { sleep, splitWords, writeEvent } from "../../../lib/llm/demo-server/http";
import { toolCallId, type CompletionRequest } from "../../../lib/llm/demo-server/request";
import { estimatePromptTokens, estimateTokens, usageOfReply, type Usage } from "../../../lib/llm/demo-server/usage";

type Delta = Record<string, unknown>;
type Chunk = { id?: unknown; choices: { delta?: Delta }[]; usage?: Usage | null } & Record<string, unknown>;

export type StreamedAnswer = {
  /** The first chunk without its choices: id, object, created, model… (and `usage: null` when usage was asked for). */
  template: Record<string, unknown>;
  reply: { type: "text"; content: string } | { type: "tool_call"; opening: Delta; argumentPieces: string[] };
  /** The closing `choices: []` chunk, when the request asked for usage. */
  usageChunk: Chunk | undefined;
};

export type Pace = { chunkDelayMs: number; tokensPerChunk: number; malformed: boolean; signal: AbortSignal };

/** Reads a whole SSE answer (`data: {…}` events up to `data: [DONE]`). */
export function readStream(text: string): StreamedAnswer {
  const chunks = text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice("data: ".length)) as Chunk);
  const withChoices = chunks.filter((chunk) => chunk.choices.length > 0);
  const first = withChoices[0];
  if (!first) throw new Error("The upstream stream carried no choice.");
  const template: Record<string, unknown> = { ...first };
  delete template.choices;
  const deltas = withChoices.map((chunk) => chunk.choices[0]?.delta ?? {});
  const usageChunk = chunks.find((chunk) => chunk.choices.length === 0 && chunk.usage);
  // The call may open after a role-only chunk (as OpenAI's own streams do): that chunk's role goes with it.
  const callAt = deltas.findIndex((delta) => Array.isArray(delta.tool_calls));
  if (callAt >= 0) {
    const opening = { ...deltas[0], ...deltas[callAt] };
    const argumentPieces = deltas.slice(callAt + 1).flatMap((delta) => {
      const calls = delta.tool_calls as { function?: { arguments?: string } }[] | undefined;
      const piece = calls?.[0]?.function?.arguments;
      return piece === undefined ? [] : [piece];
    });
    return { template, reply: { type: "tool_call", opening, argumentPieces }, usageChunk };
  }
  const content = deltas.map((delta) => (typeof delta.content === "string" ? delta.content : "")).join("");
  return { template, reply: { type: "text", content }, usageChunk };
}

let localCounter = 0;

/**
 * A triggered reply as the demo server would have sent it (SSE text or a JSON body), so
 * it takes the same way through faults and pacing as an upstream answer.
 */
export function localAnswer(request: CompletionRequest, reply: Reply): string {
  const usage = usageOfReply(estimatePromptTokens(request.messages, request.tools), reply);
  const base = { id: `chatcmpl-strata-test-${++localCounter}`, created: Math.floor(Date.now() / 1000), model: request.model, system_fingerprint: "fp_strata_test" };
  const call = reply.type === "tool_call" ? { id: toolCallId(request.messages), type: "function", function: { name: reply.name, arguments: reply.arguments } } : undefined;
  const finishReason = reply.type === "text" ? "stop" : "tool_calls";
  if (!request.stream) {
    const message = call ? { role: "assistant", content: null, refusal: null, tool_calls: [call] } : { role: "assistant", content: reply.type === "text" ? reply.content : "", refusal: null };
    return JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }], usage });
  }
  const chunk = { ...base, object: "chat.completion.chunk", ...(request.includeUsage ? { usage: null } : {}) };
  const event = (delta: Delta, finish: string | null = null) => `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const opening = call ? event({ role: "assistant", content: null, tool_calls: [{ index: 0, ...call, function: { name: call.function.name, arguments: "" } }] }) : event({ role: "assistant", content: "", refusal: null });
  const body = call ? event({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }) : event({ content: reply.type === "text" ? reply.content : "" });
  const usageEvent = request.includeUsage ? `data: ${JSON.stringify({ ...chunk, choices: [], usage })}\n\n` : "";
  return `${opening}${body}${event({}, finishReason)}${usageEvent}data: [DONE]\n\n`;
}

/** Usage once the reply is `content` instead (prompt tokens stay as counted). */
export function usageFor(usage: Usage, content: string): Usage {
  const completion = estimateTokens(content);
  return { prompt_tokens: usage.prompt_tokens, completion_tokens: completion, total_tokens: usage.prompt_tokens + completion };
}

/** A streamed answer whose reply a fault replaced by `content`. */
export function withContent(answer: StreamedAnswer, content: string): StreamedAnswer {
  const usage = answer.usageChunk?.usage;
  return {
    template: answer.template,
    reply: { type: "text", content },
    usageChunk: answer.usageChunk && usage ? { ...answer.usageChunk, usage: usageFor(usage, content) } : undefined,
  };
}

/**
 * Writes `answer` as SSE: a pause before every content piece; a malformed stream stops
 * after the first piece with a garbage line and no [DONE].
 */
export async function writeStream(res: http.ServerResponse, answer: StreamedAnswer, pace: Pace): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  const { template, reply } = answer;
  const send = (delta: Delta, finishReason: string | null = null) =>
    writeEvent(res, { ...template, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  const pieces: Delta[] =
    reply.type === "text"
      ? splitWords(reply.content, pace.tokensPerChunk).map((content) => ({ content }))
      : reply.argumentPieces.map((piece) => ({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  send(reply.type === "text" ? { role: "assistant", content: "", refusal: null } : reply.opening);
  for (const piece of pieces) {
    await sleep(pace.chunkDelayMs, pace.signal);
    if (pace.signal.aborted) return;
    send(piece);
    if (pace.malformed) break;
  }
  if (pace.malformed) {
    if (pieces.length === 0) send({ content: "" });
    res.end(`data: {"id":"${String(template.id)}","choices":[{"delta":{"content":"bro\n\n`);
    return;
  }
  send({}, reply.type === "text" ? "stop" : "tool_calls");
  if (answer.usageChunk) writeEvent(res, answer.usageChunk);
  res.end("data: [DONE]\n\n");
}
