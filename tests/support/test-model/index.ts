/**
 * The tests' model server: an HTTP proxy in front of Strata's demo server (or any
 * OpenAI-compatible `upstream`) that adds what only tests need, so the demo a user runs
 * carries none of it:
 *
 *   TRIGGERS (./behaviour.ts): a chat request whose last user message carries REPLY_WORDS=n,
 *   RECALL key? or COMPRESS_CONTEXT is answered here, in the demo server's format and with its
 *   usage estimate; every other request goes upstream (the demo model's rules are documented in
 *   lib/llm/demo-server/index.ts).
 *
 *   FAULTS (./faults.ts): queued; each chat-completions request takes the first fault whose
 *   target ("chat" | "summary" | "any", default any) matches, using one of its `times` (default 1).
 *     http_500 / http_error{status} → OpenAI-style error body with that status (upstream not asked)
 *     delay{ms}        → waits ms, then answers normally
 *     hang             → never answers; ends when the client aborts or close() is called
 *     empty            → 200 with "" content (streaming: role chunk, finish chunk, usage, [DONE])
 *     malformed_stream → streaming: role chunk, one content chunk, then a garbage data line and the
 *                        connection ends (no [DONE]); non-streaming: a truncated JSON body
 *     invalid_json     → content is prose ("This is not JSON …") instead of the normal reply
 *
 *   LATENCY: chatLatencyMs pauses before each content chunk of a streamed chat reply (once before
 *   a non-streamed one); summaryLatencyMs pauses once before any summary reply; streamed text is
 *   re-cut into pieces of tokensPerChunk words (default 3). Settable while running.
 *
 *   RECORDING: every /v1 request as { method, path, time (epoch ms), kind?, body, fault?, promptTokens? } (parsed
 *   JSON body, or the raw text when it is not JSON; `kind` "chat" | "summary" — the demo model's
 *   reading of the request — the applied fault type, and the prompt_tokens its usage reported).
 *
 *   ADMIN over HTTP, for tests in another process (Playwright):
 *     POST   /__admin/faults          body: a fault or an array of faults → { queued: Fault[] } (400 if invalid)
 *     GET    /__admin/faults          → { faults }      DELETE /__admin/faults → { ok: true }
 *     GET    /__admin/requests        → { requests }    DELETE /__admin/requests → { ok: true }
 *     POST   /__admin/reset           clears faults and recorded requests, restores the start latencies
 *     POST   /__admin/latency         body: { chatLatencyMs?, summaryLatencyMs?, tokensPerChunk? } → the current values
 *     POST   /__admin/upstream        body: { url } (an http URL on this machine) → forwards there instead, until
 *                                      DELETE /__admin/upstream or a reset (a spec's own scripted model)
 *     GET    /__admin/health          → { ok: true }
 *
 * Everything else is forwarded unchanged. close() also closes the demo server it started.
 */
import type http from "node:http";
import { z } from "zod";
import { startDemoServer, type DemoServer } from "../../../lib/llm/demo-server";
import { requestKind, type RequestKind } from "../../../lib/llm/demo-server/behaviour";
import { readBody, requestSignal, sendError, sendJson, serve, sleep } from "../../../lib/llm/demo-server/http";
import { readCompletionRequest, type CompletionRequest } from "../../../lib/llm/demo-server/request";
import type { Usage } from "../../../lib/llm/demo-server/usage";
import { triggeredReply } from "./behaviour";
import { FaultQueue, type Fault, type FaultType, type QueuedFault } from "./faults";
import { localAnswer, readStream, usageFor, withContent, writeStream } from "./stream";

export type { Fault, QueuedFault, FaultType } from "./faults";

export type TestServerOptions = {
  /** 0 (default) picks a free port. */
  port?: number | undefined;
  host?: string | undefined;
  chatLatencyMs?: number | undefined;
  summaryLatencyMs?: number | undefined;
  /** Words per streamed content chunk (default 3). */
  tokensPerChunk?: number | undefined;
  /** Base URL (…/v1) of the model to stand in front of; default: a demo server of its own. */
  upstream?: string | undefined;
};

export type RecordedRequest = {
  method: string;
  path: string;
  /** Epoch milliseconds when the request arrived. */
  time: number;
  kind?: RequestKind;
  body: unknown;
  fault?: FaultType;
  /** The prompt_tokens the answer's usage reported (the model's own count of the request), when it reported usage. */
  promptTokens?: number;
};

export type Latency = { chatLatencyMs: number; summaryLatencyMs: number; tokensPerChunk: number };

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

type Completion = { id: string; choices: { message: unknown; finish_reason: string }[]; usage: Usage };

const PROSE = "This is not JSON: the test server was told to answer in prose (invalid_json).";

const milliseconds = z.number().int().nonnegative();
// Only a model on this machine: the proxy forwards the app's key and requests.
const upstreamPatch = z.object({
  url: z.url({ protocol: /^http$/, hostname: /^(127\.0\.0\.1|localhost)$/ }),
});
const latencyPatch = z
  .object({ chatLatencyMs: milliseconds, summaryLatencyMs: milliseconds, tokensPerChunk: z.number().int().nonnegative() })
  .partial();

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const initial: Latency = {
    chatLatencyMs: options.chatLatencyMs ?? 0,
    summaryLatencyMs: options.summaryLatencyMs ?? 0,
    tokensPerChunk: Math.max(1, options.tokensPerChunk ?? 3),
  };
  let latency: Latency = { ...initial };
  const faults = new FaultQueue();
  const requests: RecordedRequest[] = [];
  const demo = options.upstream === undefined ? await startDemoServer() : undefined;
  const defaultOrigin = new URL(options.upstream ?? demo!.url).origin;
  let upstreamOrigin = defaultOrigin;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, closing: AbortSignal): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    const raw = await readBody(req);
    const body = parseJson(raw);
    if (path.startsWith("/__admin")) {
      if (body === INVALID) return sendError(res, 400, "The request body is not valid JSON.");
      return handleAdmin(method, path, body, res);
    }
    const entry: RecordedRequest = { method, path, time: Date.now(), body: body === INVALID ? raw : body };
    if (path.startsWith("/v1")) requests.push(entry);
    const request = method === "POST" && path === "/v1/chat/completions" ? readCompletionRequest(body) : null;
    if (request) return handleCompletion(req, res, raw, request, entry, requestSignal(res, closing));
    return relay(res, await forward(req, raw, closing));
  }

  async function handleCompletion(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: string,
    request: CompletionRequest,
    entry: RecordedRequest,
    signal: AbortSignal,
  ): Promise<void> {
    const kind = requestKind(request);
    entry.kind = kind;
    const fault = faults.take(kind);
    if (fault) entry.fault = fault.type;
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
    if (kind === "summary") await sleep(latency.summaryLatencyMs, signal);
    if (signal.aborted) return;

    const triggered = kind === "chat" ? triggeredReply(request.messages, request.tools) : undefined;
    let text: string;
    if (triggered) text = localAnswer(request, triggered);
    else {
      const upstream = await forward(req, raw, signal);
      if (!upstream.ok) return relay(res, upstream);
      text = await upstream.text();
    }
    const replaced = fault?.type === "empty" ? "" : fault?.type === "invalid_json" ? PROSE : undefined;
    // Streamed summaries arrive at once: summaryLatencyMs already covered their wait.
    const chunkDelayMs = kind === "chat" ? latency.chatLatencyMs : 0;
    const malformed = fault?.type === "malformed_stream";

    if (request.stream) {
      const answer = readStream(text);
      const reported = answer.usageChunk?.usage?.prompt_tokens;
      if (reported !== undefined) entry.promptTokens = reported;
      const pace = { chunkDelayMs, tokensPerChunk: latency.tokensPerChunk, malformed, signal };
      return writeStream(res, replaced === undefined ? answer : withContent(answer, replaced), pace);
    }
    await sleep(chunkDelayMs, signal);
    if (signal.aborted) return;
    const completion = JSON.parse(text) as Completion;
    entry.promptTokens = completion.usage.prompt_tokens;
    if (malformed) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"id":"${completion.id}","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis`);
      return;
    }
    if (replaced !== undefined) {
      completion.choices = completion.choices.map((choice) => ({
        ...choice,
        message: { role: "assistant", content: replaced, refusal: null },
        finish_reason: "stop",
      }));
      completion.usage = usageFor(completion.usage, replaced);
    }
    return sendJson(res, 200, completion);
  }

  function forward(req: http.IncomingMessage, raw: string, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "authorization", "accept"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const method = req.method ?? "GET";
    const hasBody = method !== "GET" && method !== "HEAD";
    return fetch(new URL(req.url ?? "/", upstreamOrigin), { method, headers, signal, ...(hasBody ? { body: raw } : {}) });
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
      case "POST /__admin/upstream": {
        const parsed = upstreamPatch.safeParse(body);
        if (!parsed.success) return sendError(res, 400, "The upstream must be { url } with an http URL on 127.0.0.1 or localhost.");
        upstreamOrigin = new URL(parsed.data.url).origin;
        return sendJson(res, 200, { upstream: upstreamOrigin });
      }
      case "DELETE /__admin/upstream":
        upstreamOrigin = defaultOrigin;
        return sendJson(res, 200, { upstream: upstreamOrigin });
      case "POST /__admin/latency": {
        const parsed = latencyPatch.safeParse(body);
        if (!parsed.success) return sendError(res, 400, "Latency values must be non-negative integers.");
        return sendJson(res, 200, setLatency(parsed.data));
      }
      default:
        return sendError(res, 404, `Unknown admin endpoint ${route}`, "invalid_request_error", 404);
    }
  }

  function setLatency(next: { [K in keyof Latency]?: number | undefined }): Latency {
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
    upstreamOrigin = defaultOrigin;
  }

  const proxy = await serve(handle, options);
  return {
    ...proxy,
    async close() {
      await proxy.close();
      await demo?.close();
    },
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

const INVALID = Symbol("invalid JSON");

function parseJson(raw: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return INVALID;
  }
}

async function relay(res: http.ServerResponse, upstream: Response): Promise<void> {
  const payload = await upstream.text();
  res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
  res.end(payload);
}

function errorMessageFor(status: number): string {
  if (status === 401) return "Incorrect API key provided (test server fault).";
  if (status === 429) return "Rate limit reached (test server fault).";
  if (status === 404) return "The model does not exist (test server fault).";
  return `The test server was told to fail with HTTP ${status}.`;
}
