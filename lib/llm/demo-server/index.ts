/**
 * Strata's OpenAI-compatible demo server: the offline model the app talks to without a key,
 * and — started with `testControls: true` — the model server of the tests. A real HTTP server
 * (node:http), so tests exercise the unmodified `openai` client.
 *
 * ENDPOINTS
 *   GET  /v1/models                 → { object: "list", data: [{ id, object: "model", created, owned_by }] }
 *                                     (strata-demo, gpt-4o-mini, gpt-4o, gpt-4.1-mini, gpt-3.5-turbo)
 *   POST /v1/chat/completions       → streaming (SSE) or not; any model name is accepted.
 *
 * TEST CONTROLS (only with `testControls: true`; otherwise every /__admin path answers 404 and
 * nothing is recorded, so the demo a user runs cannot be steered over HTTP by anyone who reaches
 * its port, and keeps no request log growing for as long as the app runs):
 *   POST   /__admin/faults          body: a fault or an array of faults → { queued: Fault[] } (400 if invalid)
 *   GET    /__admin/faults          → { faults }      DELETE /__admin/faults → { ok: true }
 *   GET    /__admin/requests        → { requests }    DELETE /__admin/requests → { ok: true }
 *   POST   /__admin/reset           clears faults and recorded requests, restores the start latencies
 *   POST   /__admin/latency         body: { chatLatencyMs?, summaryLatencyMs?, tokensPerChunk? } → the current values
 *   GET    /__admin/health          → { ok: true }
 *
 * RECORDING (test controls): every /v1 request is recorded as { method, path, time (epoch ms), kind?, body, fault? }
 * (parsed JSON body; `kind` "chat" | "summary" and the applied fault type for chat completions).
 *
 * CLASSIFICATION: a request is a SUMMARY request when its first system message contains
 * "[strata:"; the tag on that message's first line picks the kind ([strata:summary],
 * [strata:structured], [strata:digest]; an unknown tag behaves like [strata:summary]).
 * Everything else is a CHAT request.
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
 *   1. last message is a tool result       → "The tool returned: <content>"
 *   2. user text has COMPRESS_CONTEXT and tools include compress_context
 *                                          → tool call compress_context {"summary":"Summary of the conversation
 *                                            so far.\n<FACT lines joined by \n>"}
 *   3. user text matches /what time is it/i or "/time", and tools include current_time
 *                                          → tool call current_time with arguments "{}"
 *   4. user text has "RECALL key?" (one or more) → one line "key=value" per key, in order, joined by "\n";
 *                                            value from the LAST "FACT key=value" anywhere in the request
 *                                            (system summaries included), else "key=UNKNOWN"
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
 * FAULTS (test controls; see ./faults.ts): queued; each chat-completions request takes the first fault whose
 * target ("chat" | "summary" | "any", default any) matches, using one of its `times` (default 1).
 *   http_500 / http_error{status} → OpenAI-style error body with that status
 *   delay{ms}        → waits ms, then answers normally
 *   hang             → never answers; ends when the client aborts or close() is called
 *   empty            → 200 with "" content (streaming: role chunk, finish chunk, usage, [DONE])
 *   malformed_stream → streaming: role chunk, one content chunk, then a garbage data line and the
 *                      connection ends (no [DONE]); non-streaming: a truncated JSON body
 *   invalid_json     → content is prose ("This is not JSON …") instead of the normal reply
 *
 * close() aborts pending waits, destroys every open socket (hung requests included) and resolves.
 */

import http from "node:http";
import { setMaxListeners } from "node:events";
import { z } from "zod";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import type { ChatMessage } from "../../compression/types";
import { countRequestTokens, countTextTokens, type ToolDefinitionLike } from "../tokens";
import { DEMO_SERVER_MODELS } from "../models";
import { chatReply, hash32, requestKind, summaryKind, summaryReply, type Reply, type RequestKind } from "./behaviour";
import { FaultQueue, type Fault, type FaultType, type QueuedFault } from "./faults";

export type { Fault, QueuedFault, FaultType } from "./faults";

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
  /** Fault injection, latency control and request recording, over /__admin and on the returned object. */
  testControls?: boolean | undefined;
};

export type RecordedRequest = {
  method: string;
  path: string;
  /** Epoch milliseconds when the request arrived. */
  time: number;
  kind?: RequestKind;
  body: unknown;
  fault?: FaultType;
};

export type Latency = { chatLatencyMs: number; summaryLatencyMs: number; tokensPerChunk: number };

export type DemoServer = {
  /** Base URL for the openai client, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  port: number;
  host: string;
  close(): Promise<void>;
};

/** The demo server started with `testControls: true`. */
export type TestServer = DemoServer & {
  /** Live list of recorded /v1 requests. */
  readonly requests: RecordedRequest[];
  injectFault(fault: Fault): QueuedFault;
  clearFaults(): void;
  faults(): QueuedFault[];
  setLatency(latency: Partial<Latency>): Latency;
  /** Clears faults and requests, restores the start latencies. */
  reset(): void;
};

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export function startDemoServer(options: DemoServerOptions & { testControls: true }): Promise<TestServer>;
export function startDemoServer(options?: DemoServerOptions): Promise<DemoServer>;
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer | TestServer> {
  const testControls = options.testControls === true;
  const host = options.host ?? "127.0.0.1";
  const initial: Latency = {
    chatLatencyMs: options.chatLatencyMs ?? 0,
    summaryLatencyMs: options.summaryLatencyMs ?? 0,
    tokensPerChunk: Math.max(1, options.tokensPerChunk ?? 3),
  };
  let latency: Latency = { ...initial };
  const faults = new FaultQueue();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  // Aborted on close() so pending sleeps and hung requests end at once.
  const closing = new AbortController();
  // Every request in flight listens for the server closing and removes its listener
  // when it ends, so many at once under load is expected, not a leak.
  setMaxListeners(0, closing.signal);
  let completionCounter = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `Test server error: ${String(error)}`, "server_error");
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    const raw = await readBody(req);
    let body: unknown = undefined;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        if (path.startsWith("/v1")) record({ method, path, time: Date.now(), body: raw });
        return sendError(res, 400, "The request body is not valid JSON.");
      }
    }

    if (testControls && path.startsWith("/__admin")) return handleAdmin(method, path, body, res);
    if (!path.startsWith("/v1")) return sendError(res, 404, `Unknown path ${path}`, "invalid_request_error", 404);

    const entry: RecordedRequest = { method, path, time: Date.now(), body };
    record(entry);

    if (method === "GET" && path === "/v1/models") {
      const created = 1_700_000_000;
      return sendJson(res, 200, {
        object: "list",
        data: DEMO_SERVER_MODELS.map((id) => ({ id, object: "model", created, owned_by: "strata" })),
      });
    }
    if (method === "POST" && path === "/v1/chat/completions") return handleCompletion(req, res, body, entry);
    return sendError(res, 404, `Unknown endpoint ${method} ${path}`, "invalid_request_error", 404);
  }

  function record(entry: RecordedRequest): void {
    if (testControls) requests.push(entry);
  }

  async function handleCompletion(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: unknown,
    record: RecordedRequest,
  ): Promise<void> {
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
    record.kind = kind;

    // One signal per request: the client went away, or the server is closing.
    const aborted = new AbortController();
    const onClosing = () => aborted.abort();
    closing.signal.addEventListener("abort", onClosing, { once: true });
    res.on("close", () => {
      closing.signal.removeEventListener("abort", onClosing);
      if (!res.writableEnded) aborted.abort();
    });
    const signal = aborted.signal;

    const fault = faults.take(kind);
    if (fault) record.fault = fault.type;
    switch (fault?.type) {
      case "http_500":
        return sendError(res, 500, "The test server was told to fail (http_500).", "server_error");
      case "http_error":
        return sendError(
          res,
          fault.status,
          fault.message ?? errorMessageFor(fault.status),
          fault.status >= 500 ? "server_error" : "invalid_request_error",
          fault.status === 401 ? "invalid_api_key" : null,
        );
      case "hang":
        // Never answer; the socket is destroyed by the client's abort or by close().
        return;
      case "delay":
        await sleep(fault.ms, signal);
        break;
    }
    if (signal.aborted) return;

    if (kind === "summary") await sleep(latency.summaryLatencyMs, signal);
    if (signal.aborted) return;

    let reply: Reply =
      kind === "summary" ? { type: "text", content: summaryReply(summaryKind(messages)!, messages) } : chatReply(messages, tools);
    if (fault?.type === "empty") reply = { type: "text", content: "" };
    if (fault?.type === "invalid_json") {
      reply = { type: "text", content: "This is not JSON: the test server was told to answer in prose (invalid_json)." };
    }

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
    const chunkDelay = kind === "chat" ? latency.chatLatencyMs : 0;
    const malformed = fault?.type === "malformed_stream";

    if (!stream) {
      await sleep(chunkDelay, signal);
      if (signal.aborted) return;
      if (malformed) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(`{"id":"${id}","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis`);
        return;
      }
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
      const pieces = splitWords(reply.content, latency.tokensPerChunk);
      for (const [i, piece] of pieces.entries()) {
        await sleep(chunkDelay, signal);
        if (signal.aborted) return;
        chunk({ content: piece });
        if (malformed && i === 0) break;
      }
      if (malformed && pieces.length === 0) chunk({ content: "" });
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
        if (malformed) break;
      }
    }
    if (malformed) {
      res.end(`data: {"id":"${id}","choices":[{"delta":{"content":"bro\n\n`);
      return;
    }
    chunk({}, reply.type === "text" ? "stop" : "tool_calls");
    if (includeUsage) writeEvent(res, { ...base, choices: [], usage });
    res.end("data: [DONE]\n\n");
  }

  function handleAdmin(method: string, path: string, body: unknown, res: http.ServerResponse): void {
    const route = `${method} ${path}`;
    switch (route) {
      case "GET /__admin/health":
        return sendJson(res, 200, { ok: true });
      case "POST /__admin/faults": {
        const list = Array.isArray(body) ? body : [body];
        const queued: QueuedFault[] = [];
        try {
          // Validate all before queueing any, so a bad batch changes nothing.
          const parsed = list.map((fault) => new FaultQueue().add(fault));
          for (const fault of parsed) queued.push(faults.add(fault));
        } catch (error) {
          const detail = error instanceof z.ZodError ? z.prettifyError(error) : String(error);
          return sendError(res, 400, `Invalid fault: ${detail}`);
        }
        return sendJson(res, 200, { queued });
      }
      case "GET /__admin/faults":
        return sendJson(res, 200, { faults: faults.list() });
      case "DELETE /__admin/faults":
        faults.clear();
        return sendJson(res, 200, { ok: true });
      case "GET /__admin/requests":
        return sendJson(res, 200, { requests });
      case "DELETE /__admin/requests":
        requests.length = 0;
        return sendJson(res, 200, { ok: true });
      case "POST /__admin/reset":
        reset();
        return sendJson(res, 200, { ok: true });
      case "POST /__admin/latency": {
        const parsed = parseLatency(body);
        if (!parsed) return sendError(res, 400, "Latency values must be non-negative integers.");
        return sendJson(res, 200, setLatency(parsed));
      }
      default:
        return sendError(res, 404, `Unknown admin endpoint ${route}`, "invalid_request_error", 404);
    }
  }

  function setLatency(next: Partial<Latency>): Latency {
    latency = {
      chatLatencyMs: next.chatLatencyMs ?? latency.chatLatencyMs,
      summaryLatencyMs: next.summaryLatencyMs ?? latency.summaryLatencyMs,
      tokensPerChunk: Math.max(1, next.tokensPerChunk ?? latency.tokensPerChunk),
    };
    return { ...latency };
  }

  function reset(): void {
    faults.clear();
    requests.length = 0;
    latency = { ...initial };
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  if (options.unref) server.unref();
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;

  let closed: Promise<void> | undefined;
  const demo: DemoServer = {
    url: `http://${urlHost}:${port}/v1`,
    port,
    host,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
  if (!testControls) return demo;
  return {
    ...demo,
    get requests() {
      return requests;
    },
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    setLatency,
    reset,
  };
}

function parseLatency(body: unknown): Partial<Latency> | undefined {
  if (!body || typeof body !== "object") return undefined;
  const out: Partial<Latency> = {};
  for (const key of ["chatLatencyMs", "summaryLatencyMs", "tokensPerChunk"] as const) {
    const value = (body as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) return undefined;
    out[key] = value;
  }
  return out;
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

/** Content pieces of `wordsPerChunk` words each, whitespace kept so they concatenate back exactly. */
export function splitWords(text: string, wordsPerChunk: number): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  const trailing = text.slice(words.join("").length);
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) pieces.push(words.slice(i, i + wordsPerChunk).join(""));
  if (trailing) {
    if (pieces.length > 0) pieces[pieces.length - 1] += trailing;
    else pieces.push(trailing);
  }
  return pieces;
}

function splitChars(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length > 0 ? pieces : [""];
}

function writeEvent(res: http.ServerResponse, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

function sendJson(res: http.ServerResponse, status: number, data: unknown): void {
  const payload = JSON.stringify(data);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

function sendError(
  res: http.ServerResponse,
  status: number,
  message: string,
  type = "invalid_request_error",
  code: string | number | null = null,
): void {
  sendJson(res, status, { error: { message, type, param: null, code } });
}

function errorMessageFor(status: number): string {
  if (status === 401) return "Incorrect API key provided (test server fault).";
  if (status === 429) return "Rate limit reached (test server fault).";
  if (status === 404) return "The model does not exist (test server fault).";
  return `The test server was told to fail with HTTP ${status}.`;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("Request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
