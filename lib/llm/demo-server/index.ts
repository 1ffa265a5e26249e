/**
 * Strata's OpenAI-compatible demo server: the offline model the app talks to without a
 * key. A real HTTP server (node:http) that answers plausibly, streams, uses the tools the
 * demo offers and summarises when asked. What a user can type into it is all it reacts
 * to: it has no hidden triggers, admin API or request log.
 *
 * ENDPOINTS
 *   GET  /v1/models                 → { object: "list", data: [{ id, object: "model", created, owned_by }] }
 *                                     (strata-demo, gpt-4o-mini, gpt-4o, gpt-4.1-mini, gpt-3.5-turbo)
 *   POST /v1/chat/completions       → streaming (SSE) or not; any model name is accepted.
 *
 *   Anything else answers 404: the demo a user runs cannot be steered over HTTP and keeps
 *   no request log.
 *
 * CLASSIFICATION, by reading the request as a model would (no tags):
 *   - its last message is a user message whose first line asks "Summarize the N messages
 *     above that end M messages before this one" (or "right before this one"), or "Merge the
 *     N summaries above …": a SUMMARY of those N messages only (tools may be offered: the
 *     request reuses the chat request's prefix);
 *   - or it is exactly a system message that asks to summarize, condense, compress, merge or
 *     digest and one user message, with no tools offered (a chat turn offers the app's tools):
 *     a SUMMARY of the whole request;
 *   - everything else is CHAT.
 *   The kind of summary: response_format json_object → structured; an instruction asking for
 *   one line ("into one line", "single line") → digest; otherwise a prose summary.
 *
 * FACT LINES: wherever "FACT key=value" (key without spaces or "=") occurs on a line of any
 * message of the material (system messages and assistant tool-call argument strings included),
 * the text from "FACT" to the end of that line, trimmed, is a fact line — the same text
 * lib/compression/facts.ts extracts, and what the summary instructions ask to keep verbatim.
 * Deduplicated, in order of first appearance.
 *
 * SUMMARY REQUESTS (never truncated to max_tokens, so facts always survive):
 *   summary    → "Summary of the conversation so far.\n" + one FACT line per line
 *                + "\nDigest: N messages (u user, a assistant, t tool); last user message: \"…60 chars\"."
 *   structured → {"goals":[first 80 chars of the first user message],"decisions":[],"completed":[],
 *                 "openItems":[],"facts":[FACT lines]}   (goals is [] without a user message)
 *                Quotes (digest line, goals, the echo) collapse whitespace and lower-case "FACT "
 *                so a cut can't plant a truncated fact ("FACT color=bl") in the next summary level.
 *   digest     → FACT lines joined by "; ", or else the first 80 chars of the last user
 *                message with whitespace collapsed to single spaces.
 *
 * CHAT REQUESTS, first matching rule wins; "user text" = the last user message:
 *   1. last message is a tool result       → "The tool returned: <content>"
 *   2. user text asks to list the files, read a file (a name with an extension) or "what do you
 *      remember", and a tool server's list_directory / read_text_file / read_graph is offered
 *                                          → a call of that tool
 *   3. user text matches /what time is it/i or "/time", and tools include current_time
 *                                          → tool call current_time with arguments "{}"
 *   4. otherwise                           → Markdown echo: "**Demo model** — you said: “…”" (first 40
 *                                            words) + a bulleted recap (word count, messages, facts); ≤ 120 words
 *
 * STREAMING: chunks shaped like OpenAI's chat.completion.chunk: a role chunk, the content in
 * chunks of `tokensPerChunk` words (whitespace kept, so the deltas concatenate to the reply),
 * a finish chunk, then — with stream_options.include_usage — a chunk with choices: [] and usage,
 * then "data: [DONE]". Tool calls stream like OpenAI's: the first delta carries index/id/type/name
 * and empty arguments, later deltas carry argument pieces; finish_reason "tool_calls".
 * Tool-call ids are "call_" + a hash of the request, so they are stable.
 *
 * USAGE is the demo's own estimate (./usage.ts: about four characters a token), not the app's
 * counter: like a real server's, it differs from the app's count, which calibrates against it.
 *
 * LATENCY: chatLatencyMs pauses before each content chunk of a streamed chat reply (once before
 * a non-streamed one); summaryLatencyMs pauses once before any summary reply. Both default to 0.
 *
 * close() aborts pending waits, destroys every open socket (hung requests included) and resolves.
 */

import type http from "node:http";
import { DEMO_SERVER_MODELS } from "../models";
import { chatReply, summaryKind, summaryMaterial, summaryReply, type Reply } from "./behaviour";
import { readCompletionRequest, toolCallId } from "./request";
import { estimatePromptTokens, usageOfReply } from "./usage";
import { readBody, requestSignal, sendError, sendJson, serve, sleep, splitWords, writeEvent, type HttpService } from "./http";

export { splitWords } from "./http";

export type DemoServerOptions = {
  /** 0 (default) picks a free port. */
  port?: number | undefined;
  host?: string | undefined;
  chatLatencyMs?: number | undefined;
  summaryLatencyMs?: number | undefined;
  /** Words per streamed content chunk (default 3). */
  tokensPerChunk?: number | undefined;
  /** Don't keep the process alive for the server (the in-app demo server uses this). */
  unref?: boolean | undefined;
};

export type DemoServer = HttpService;

export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const chatLatencyMs = options.chatLatencyMs ?? 0;
  const summaryLatencyMs = options.summaryLatencyMs ?? 0;
  const tokensPerChunk = Math.max(1, options.tokensPerChunk ?? 3);
  let completionCounter = 0;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, closing: AbortSignal): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    const raw = await readBody(req);
    let body: unknown = undefined;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendError(res, 400, "The request body is not valid JSON.");
      }
    }
    if (!path.startsWith("/v1")) return sendError(res, 404, `Unknown path ${path}`, "invalid_request_error", 404);

    if (method === "GET" && path === "/v1/models") {
      const created = 1_700_000_000;
      return sendJson(res, 200, {
        object: "list",
        data: DEMO_SERVER_MODELS.map((id) => ({ id, object: "model", created, owned_by: "strata" })),
      });
    }
    if (method === "POST" && path === "/v1/chat/completions") return handleCompletion(res, body, requestSignal(res, closing));
    return sendError(res, 404, `Unknown endpoint ${method} ${path}`, "invalid_request_error", 404);
  }

  async function handleCompletion(res: http.ServerResponse, body: unknown, signal: AbortSignal): Promise<void> {
    const request = readCompletionRequest(body);
    if (!request) return sendError(res, 400, "'messages' must be a non-empty array.", "invalid_request_error", "messages");
    const { messages, model, tools, stream, includeUsage } = request;
    const summary = summaryKind(request);
    const kind = summary === undefined ? "chat" : "summary";

    if (kind === "summary") await sleep(summaryLatencyMs, signal);
    if (signal.aborted) return;

    const reply: Reply = summary === undefined ? chatReply(messages, tools) : { type: "text", content: summaryReply(summary, summaryMaterial(messages)) };
    const usage = usageOfReply(estimatePromptTokens(messages, tools), reply);

    const id = `chatcmpl-strata-${++completionCounter}`;
    const created = Math.floor(Date.now() / 1000);
    const callId = toolCallId(messages);
    // Streamed summaries arrive at once: summaryLatencyMs already covered their wait.
    const chunkDelay = kind === "chat" ? chatLatencyMs : 0;

    if (!stream) {
      await sleep(chunkDelay, signal);
      if (signal.aborted) return;
      const message =
        reply.type === "text"
          ? { role: "assistant", content: reply.content, refusal: null }
          : {
              role: "assistant",
              content: null,
              refusal: null,
              tool_calls: [{ id: callId, type: "function", function: { name: reply.name, arguments: reply.arguments } }],
            };
      return sendJson(res, 200, {
        id,
        object: "chat.completion",
        created,
        model,
        system_fingerprint: "fp_strata_demo",
        choices: [{ index: 0, message, logprobs: null, finish_reason: reply.type === "text" ? "stop" : "tool_calls" }],
        usage,
      });
    }

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    const base = { id, object: "chat.completion.chunk", created, model, system_fingerprint: "fp_strata_demo" };
    const usageField = includeUsage ? { usage: null } : {};
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      writeEvent(res, { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...usageField });

    if (reply.type === "text") {
      chunk({ role: "assistant", content: "", refusal: null });
      const pieces = splitWords(reply.content, tokensPerChunk);
      for (const piece of pieces) {
        await sleep(chunkDelay, signal);
        if (signal.aborted) return;
        chunk({ content: piece });
      }
    } else {
      chunk({
        role: "assistant",
        content: null,
        tool_calls: [{ index: 0, id: callId, type: "function", function: { name: reply.name, arguments: "" } }],
      });
      for (const piece of splitChars(reply.arguments, 12)) {
        await sleep(chunkDelay, signal);
        if (signal.aborted) return;
        chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
      }
    }
    chunk({}, reply.type === "text" ? "stop" : "tool_calls");
    if (includeUsage) writeEvent(res, { ...base, choices: [], usage });
    res.end("data: [DONE]\n\n");
  }

  return serve(handle, options);
}

function splitChars(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length > 0 ? pieces : [""];
}
