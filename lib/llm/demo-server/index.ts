/**
 * Strata's OpenAI-compatible demo server: the offline model the app talks to without a key,
 * and the model behind the tests (tests/support/test-model puts fault injection, latency
 * control and request recording in front of it). A real HTTP server (node:http), so tests
 * exercise the unmodified `openai` client.
 *
 * ENDPOINTS
 *   GET  /v1/models                 → { object: "list", data: [{ id, object: "model", created, owned_by }] }
 *                                     (strata-demo, gpt-4o-mini, gpt-4o, gpt-4.1-mini, gpt-3.5-turbo)
 *   POST /v1/chat/completions       → streaming (SSE) or not; any model name is accepted.
 *
 *   Anything else, /__admin included, answers 404: the demo a user runs cannot be steered
 *   over HTTP and keeps no request log.
 *
 * CLASSIFICATION: a request is a SUMMARY request when its first system message contains
 * "[strata:", or when its last message is a user message that starts with "[strata:" (a
 * summary request that reuses the chat request's prefix; tools may be offered); the tag on
 * that message's first line picks the kind ([strata:summary], [strata:structured],
 * [strata:digest]; an unknown tag behaves like [strata:summary]). Everything else is a
 * CHAT request. A trailing instruction names its material by counting back from itself,
 * "the N messages (or summaries) above that end M messages before this one" (or "right
 * before this one"): the summary is written from those N messages only.
 *
 * FACT LINES: wherever "FACT key=value" (key without spaces or "=") occurs on a line of any
 * message of the request (system messages and assistant tool-call argument strings included),
 * the text from "FACT" to the end of that line, trimmed, is a fact line — the same text
 * lib/compression/facts.ts extracts. Deduplicated, in order of first appearance.
 * RECALL reads key/value pairs: value = the next non-space run, trailing .,;:!?)]}"'`* dropped.
 *
 * SUMMARY REQUESTS (never truncated to max_tokens, so facts always survive):
 *   [strata:summary]    → "Summary of the conversation so far.\n" + one FACT line per line
 *                         + "\nDigest: N messages (u user, a assistant, t tool); last user message: \"…60 chars\"."
 *   [strata:structured] → {"goals":[first 80 chars of the first user message],"decisions":[],"completed":[],
 *                          "openItems":[],"facts":[FACT lines]}   (goals is [] without a user message)
 *                         Quotes (digest line, goals, the echo) collapse whitespace and lower-case "FACT "
 *                         so a cut can't plant a truncated fact ("FACT color=bl") in the next summary level.
 *   [strata:digest]     → FACT lines joined by "; ", or else the first 80 chars of the last user
 *                         message with whitespace collapsed to single spaces.
 *
 * CHAT REQUESTS (the demo model), first matching rule wins; "user text" = the last user message:
 *   1. last message is a tool result       → "The tool returned: <content>", unless the user text has RECALL keys
 *                                            and search_history was called since it: then rule 4 again
 *                                            (the results are in the request now)
 *   2. user text has COMPRESS_CONTEXT and tools include compress_context
 *                                          → tool call compress_context {"summary":"Summary of the conversation
 *                                            so far.\n<FACT lines joined by \n>"}
 *   3. user text matches /what time is it/i or "/time", and tools include current_time
 *                                          → tool call current_time with arguments "{}"
 *   4. user text has "RECALL key?" (one or more) → one line "key=value" per key, in order, joined by "\n";
 *                                            value from the LAST "FACT key=value" anywhere in the request
 *                                            (system summaries and tool results included), else "key=UNKNOWN";
 *                                            but a key it cannot see, with search_history offered and not yet
 *                                            called for that key since the user text → tool call search_history
 *                                            {"query":"<key>"} (one key per call, in order)
 *   5. user text has REPLY_WORDS=n         → exactly n lorem-like lowercase words separated by single
 *                                            spaces, seeded by the user text (n capped at 50000)
 *   6. otherwise                           → Markdown echo: "**Demo model** — you said: “…”" (first 40
 *                                            words) + a bulleted recap (word count, messages, facts); ≤ 120 words
 *
 * STREAMING: chunks shaped like OpenAI's chat.completion.chunk: a role chunk, the content in
 * chunks of `tokensPerChunk` words (whitespace kept, so the deltas concatenate to the reply),
 * a finish chunk, then — with stream_options.include_usage — a chunk with choices: [] and usage,
 * then "data: [DONE]". Tool calls stream like OpenAI's: the first delta carries index/id/type/name
 * and empty arguments, later deltas carry argument pieces; finish_reason "tool_calls".
 * Tool-call ids are "call_" + a hash of the request, so they are stable.
 *
 * USAGE is honest: prompt_tokens = countRequestTokens(messages, model, tools) from ../tokens;
 * completion_tokens = tokens of the content, or of the tool call's name + arguments.
 *
 * LATENCY: chatLatencyMs pauses before each content chunk of a streamed chat reply (once before
 * a non-streamed one); summaryLatencyMs pauses once before any summary reply. Both default to 0.
 *
 * close() aborts pending waits, destroys every open socket (hung requests included) and resolves.
 */

import type http from "node:http";
import type { ChatMessage } from "../../compression/types";
import { countRequestTokens, countTextTokens, type ToolDefinitionLike } from "../tokens";
import { DEMO_SERVER_MODELS } from "../models";
import { chatReply, hash32, requestKind, summaryKind, summaryMaterial, summaryReply, type Reply } from "./behaviour";
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
    const params = (body ?? {}) as Record<string, unknown>;
    if (!Array.isArray(params.messages) || params.messages.length === 0) {
      return sendError(res, 400, "'messages' must be a non-empty array.", "invalid_request_error", "messages");
    }
    const messages = params.messages.map(normalizeMessage);
    const model = typeof params.model === "string" ? params.model : "strata-demo";
    const tools = Array.isArray(params.tools) ? (params.tools as ToolDefinitionLike[]) : undefined;
    const stream = params.stream === true;
    const includeUsage = (params.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const kind = requestKind(messages);

    if (kind === "summary") await sleep(summaryLatencyMs, signal);
    if (signal.aborted) return;

    const reply: Reply =
      kind === "summary" ? { type: "text", content: summaryReply(summaryKind(messages)!, summaryMaterial(messages)) } : chatReply(messages, tools);
    const usage = {
      prompt_tokens: countRequestTokens(messages, model, tools),
      completion_tokens:
        reply.type === "text" ? countTextTokens(reply.content, model) : countTextTokens(reply.name, model) + countTextTokens(reply.arguments, model),
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;

    const id = `chatcmpl-strata-${++completionCounter}`;
    const created = Math.floor(Date.now() / 1000);
    const callId = `call_${hash32(JSON.stringify(messages)).toString(16).padStart(8, "0")}`;
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
        system_fingerprint: "fp_strata_test",
        choices: [{ index: 0, message, logprobs: null, finish_reason: reply.type === "text" ? "stop" : "tool_calls" }],
        usage,
      });
    }

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    const base = { id, object: "chat.completion.chunk", created, model, system_fingerprint: "fp_strata_test" };
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

/** OpenAI accepts content as a string or an array of parts; the demo model reads text only. */
function normalizeMessage(raw: unknown): ChatMessage {
  const message = (raw ?? {}) as Record<string, unknown>;
  const content = message.content;
  let text: string | null;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = content
      .map((part) => (part && typeof part === "object" && typeof part.text === "string" ? part.text : ""))
      .join("");
  } else text = null;
  const role = typeof message.role === "string" ? message.role : "user";
  if (role === "assistant") {
    return {
      role,
      content: text,
      ...(Array.isArray(message.tool_calls) ? { tool_calls: message.tool_calls as never } : {}),
    };
  }
  if (role === "tool") return { role, content: text ?? "", tool_call_id: String(message.tool_call_id ?? "") };
  // "developer" and unknown roles keep their name (it is counted as tokens) but act like system/user text.
  return { role: role as "system" | "user", content: text ?? "" };
}

function splitChars(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length > 0 ? pieces : [""];
}
