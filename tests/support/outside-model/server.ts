// The outside model over HTTP (node:http only). See README.md for why it shares
// nothing with the app.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import {
  CITE_MODES,
  SUMMARY_MODES,
  TITLE_MODES,
  argumentPieces,
  asksForTitle,
  cachedAfter,
  chatReply,
  classify,
  completionTokens,
  countText,
  contentPieces,
  contextLengthMessage,
  materialOf,
  maxTokensOf,
  mulberry32,
  promptTokens,
  summarize,
  wantsJson,
  type ChatReply,
  type CompletionBody,
  type CiteMode,
  type SummaryMode,
  type TitleMode,
  CHAT_MODES,
  type ChatMode,
} from "./behaviour";
import { BadImage, imagesOf, type SeenImage } from "./images";

export type { ChatMode, CiteMode, SummaryMode, TitleMode } from "./behaviour";

export type OutsideModelOptions = {
  port?: number;
  summaryMode?: SummaryMode;
  /** Whether summaries open with the title line a request asks for. */
  titles?: TitleMode;
  /** Summaries cite the labelled messages their sentences came from. */
  cite?: boolean;
  /** `wild`: the cites also name numbers that are nowhere in the material. */
  citeMode?: CiteMode;
  /** How chat turns use tools (see CHAT_MODES). */
  chatMode?: ChatMode;
  usage?: "always" | "never" | "random";
  contextWindow?: number;
  seed?: number;
  summaryLatencyMs?: number;
  chatLatencyMs?: number;
  /** Models that take image parts (a request with images to any other is a 400); absent: every model does. */
  imageModels?: string[];
  failRate?: number;
  hang?: boolean;
  /**
   * Refuses a request with a body field it does not know (STRICT_KNOWN_FIELDS), as strict
   * servers do, in the shape of one of them: `openai` (400, error.message; Azure AI Foundry),
   * `nim` (400, a top-level message; NVIDIA NIM), `fastapi` (422, pydantic's detail list).
   */
  strict?: StrictStyle;
  /** Fields a strict server knows besides the original ones (e.g. `stream_options`). */
  strictAlsoKnows?: string[];
  /**
   * Models that answer as OpenAI's reasoning models do: a request with `max_tokens` (they
   * take `max_completion_tokens`) or a temperature other than 1 is a 400 naming it, one at a time.
   */
  reasoningModels?: string[];
  /** Models without tool calling: a request offering tools is a 400 in Ollama's words ("M does not support tools"). */
  toollessModels?: string[];
  /**
   * Models whose chat template takes an optional system message first, then user and
   * assistant messages alternating from a user message (Gemma, Mistral); anything else is
   * a 400 in vLLM's words and shape (a top-level message, no `error` member).
   */
  alternatingModels?: string[];
  /**
   * The window it serves, without saying so (Ollama beyond its num_ctx): a longer prompt
   * loses its oldest messages but the system ones and the last until it fits, is answered
   * from what is left, and usage reports what was kept. No context_length error.
   */
  truncateAt?: number;
  /**
   * A reasoning model's thinking before every text answer (chat and summary): `tags` puts it
   * in the content as a leading `<think>…</think>` block (Qwen, DeepSeek-R1 without a
   * reasoning parser), `field` sends it as `reasoning_content` (vLLM, DeepSeek's API),
   * `unopened` as `tags` without the opening tag (a chat template that opens the block in
   * the prompt, as DeepSeek-R1's does).
   */
  thinking?: ThinkingMode;
  /** With `thinking: "field"`: how long it pauses between its thinking and its answer (a test stops a reply while it thinks). */
  thinkingPauseMs?: number;
};

export const THINKING_MODES = ["none", "tags", "field", "unopened"] as const;
export type ThinkingMode = (typeof THINKING_MODES)[number];

export const STRICT_STYLES = ["openai", "nim", "fastapi"] as const;
export type StrictStyle = (typeof STRICT_STYLES)[number];
/** What a strict server knows: the chat-completions fields of the original API, not later additions. */
const STRICT_KNOWN_FIELDS = new Set(["model", "messages", "stream", "tools", "tool_choice", "temperature", "top_p", "max_tokens", "max_completion_tokens", "response_format", "stop", "n", "seed", "user", "presence_penalty", "frequency_penalty"]);

/** Options as callers pass them: an undefined value means "the default". */
export type OutsideModelPatch = { [K in keyof OutsideModelOptions]?: OutsideModelOptions[K] | undefined };

export type RecordedRequest = {
  kind: "chat" | "summary";
  promptTokens: number;
  /** What its usage reports as cached_tokens (see the README's prompt-cache rule). */
  cachedTokens: number;
  maxTokens?: number | undefined;
  body: unknown;
  /** The image parts it read (their prompt tokens are in promptTokens). */
  images: SeenImage[];
  reply?: { text: string; finishReason: string; completionTokens: number; toolCall?: { id: string; name: string; arguments: string }; thought?: string };
  /** 0 while unanswered (a hung request stays at 0). */
  status: number;
  /** With `truncateAt`: the prompt tokens it was sent, when it kept fewer (promptTokens). */
  truncatedFrom?: number;
  time: number;
};

export type OutsideModelStats = { chat: number; summary: number; failed: number; overWindow: number };
/** Prompt tokens of the chat and the summary requests, and how many of them a prefix cache could have served (see cachedAfter). */
/** Chat requests' prompt and cacheable tokens, and the same for summary requests. */
export type PromptCacheStats = { promptTokens: number; cachedTokens: number; summaryPromptTokens: number; summaryCachedTokens: number };
const NO_CACHE: PromptCacheStats = { promptTokens: 0, cachedTokens: 0, summaryPromptTokens: 0, summaryCachedTokens: 0 };

export type OutsideModel = {
  url: string;
  port: number;
  configure(patch: OutsideModelPatch): void;
  requests(): RecordedRequest[];
  reset(): void;
  stats(): OutsideModelStats;
  promptCache(): PromptCacheStats;
  close(): Promise<void>;
};

const optionsPatch = z
  .object({
    summaryMode: z.enum(SUMMARY_MODES),
    titles: z.enum(TITLE_MODES),
    cite: z.boolean(),
    citeMode: z.enum(CITE_MODES),
    chatMode: z.enum(CHAT_MODES),
    usage: z.enum(["always", "never", "random"]),
    contextWindow: z.number().int().positive().nullable(),
    seed: z.number().int(),
    summaryLatencyMs: z.number().min(0),
    chatLatencyMs: z.number().min(0),
    imageModels: z.array(z.string()).nullable(),
    failRate: z.number().min(0).max(1),
    hang: z.boolean(),
    strict: z.enum(STRICT_STYLES).nullable(),
    strictAlsoKnows: z.array(z.string()),
    reasoningModels: z.array(z.string()),
    toollessModels: z.array(z.string()),
    alternatingModels: z.array(z.string()),
    truncateAt: z.number().int().positive().nullable(),
    thinking: z.enum(THINKING_MODES),
    thinkingPauseMs: z.number().min(0),
  })
  .partial()
  .strict();

const completionBody = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string() })).min(1),
});

type Config = Required<Omit<OutsideModelOptions, "port" | "contextWindow" | "imageModels" | "strict" | "truncateAt">> & {
  contextWindow?: number;
  imageModels?: string[];
  strict?: StrictStyle;
  truncateAt?: number;
};

const DEFAULTS: Config = { summaryMode: "extractive", titles: "follow", cite: false, citeMode: "exact", chatMode: "directed", usage: "always", seed: 1, summaryLatencyMs: 0, chatLatencyMs: 0, failRate: 0, hang: false, strictAlsoKnows: [], reasoningModels: [], toollessModels: [], alternatingModels: [], thinking: "none", thinkingPauseMs: 0 };

/** Separate streams per purpose, so e.g. chunking does not shift which request fails. */
function generators(seed: number) {
  return {
    mixed: mulberry32(seed ^ 0x1f1f1f1f),
    fail: mulberry32(seed ^ 0x2e2e2e2e),
    usage: mulberry32(seed ^ 0x3d3d3d3d),
    chunks: mulberry32(seed ^ 0x4c4c4c4c),
  };
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code?: string,
    /** The whole response body, for servers whose errors are not shaped like OpenAI's. */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/** The body as a server serving `window` tokens reads it: the oldest messages but the system ones and the last dropped until it fits. */
function keptWithin(body: CompletionBody, window: number): CompletionBody {
  if (promptTokens(body) <= window) return body;
  const messages = [...body.messages];
  for (let index = 0; index < messages.length - 1 && promptTokens({ ...body, messages }) > window; ) {
    if (messages[index]!.role === "system") index++;
    else messages.splice(index, 1);
  }
  return { ...body, messages };
}

/** An optional system message, then user, assistant, user, … (what a strict chat template accepts). */
function rolesAlternate(roles: string[]): boolean {
  const rest = roles[0] === "system" ? roles.slice(1) : roles;
  return rest.every((role, index) => role === (index % 2 === 0 ? "user" : "assistant"));
}

/** What a reasoning model refuses first, in OpenAI's words, or null. */
function refusedByReasoningModel(body: Record<string, unknown>): HttpError | null {
  if (body.max_tokens !== undefined) {
    return new HttpError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "invalid_request_error", "unsupported_parameter");
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    return new HttpError(400, `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`, "invalid_request_error", "unsupported_value");
  }
  return null;
}

/** The refusal a strict server of `style` sends for fields it does not know. */
function unknownFields(style: StrictStyle, fields: string[], body: Record<string, unknown>): HttpError {
  switch (style) {
    case "openai":
      // One field at a time, as Azure names them.
      return new HttpError(400, `Unrecognized request argument supplied: ${fields[0]}`, "invalid_request_error");
    case "nim": {
      const message = `Validation: Unsupported parameter(s): ${fields.map((f) => `\`${f}\``).join(", ")}`;
      return new HttpError(400, message, "Bad Request", undefined, { message, type: "Bad Request", code: 400 });
    }
    case "fastapi":
      return new HttpError(422, "Extra inputs are not permitted", "extra_forbidden", undefined, {
        detail: fields.map((field) => ({ type: "extra_forbidden", loc: ["body", field], msg: "Extra inputs are not permitted", input: body[field] })),
      });
  }
}

export async function startOutsideModel(options: OutsideModelPatch = {}): Promise<OutsideModel> {
  const { port: wantedPort = 0, ...rest } = options;
  let config: Config = { ...DEFAULTS, ...withoutUndefined(rest) };
  let rng = generators(config.seed);
  let recorded: RecordedRequest[] = [];
  let counters: OutsideModelStats = { chat: 0, summary: 0, failed: 0, overWindow: 0 };
  let cache: PromptCacheStats = { ...NO_CACHE };
  // The newest request of each kind: a cache keeps both prefixes.
  let lastOf: Record<"chat" | "summary", CompletionBody | undefined> = { chat: undefined, summary: undefined };
  let ids = 0;
  let toolCalls = 0;
  let thoughts = 0;
  const timers = new Set<NodeJS.Timeout>();

  function configure(patch: OutsideModelPatch): void {
    const { port: _port, ...clean } = patch;
    config = { ...config, ...withoutUndefined(clean) };
    if ("contextWindow" in clean && (clean.contextWindow === undefined || clean.contextWindow === null)) delete config.contextWindow;
    if ("imageModels" in clean && (clean.imageModels === undefined || clean.imageModels === null)) delete config.imageModels;
    if ("strict" in clean && (clean.strict === undefined || clean.strict === null)) delete config.strict;
    if ("truncateAt" in clean && (clean.truncateAt === undefined || clean.truncateAt === null)) delete config.truncateAt;
    if (clean.seed !== undefined) rng = generators(config.seed);
  }

  function reset(): void {
    recorded = [];
    counters = { chat: 0, summary: 0, failed: 0, overWindow: 0 };
    cache = { ...NO_CACHE };
    lastOf = { chat: undefined, summary: undefined };
    ids = 0;
    toolCalls = 0;
    rng = generators(config.seed);
  }

  function sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  async function completions(sent: CompletionBody, res: http.ServerResponse): Promise<void> {
    const kind = classify(sent);
    const body = config.truncateAt !== undefined ? keptWithin(sent, config.truncateAt) : sent;
    // Served from the newest chat or summary request, whichever shares more: a cache keeps both prefixes.
    const cached = cachedAfter([lastOf.chat, lastOf.summary], body);
    let images: SeenImage[];
    try {
      images = imagesOf(body.messages);
    } catch (error) {
      if (error instanceof BadImage) throw new HttpError(400, error.message, "invalid_request_error", "invalid_image");
      throw error;
    }
    const imageTokens = images.reduce((total, image) => total + image.tokens, 0);
    const entry: RecordedRequest = { kind, promptTokens: promptTokens(body) + imageTokens, cachedTokens: cached, maxTokens: maxTokensOf(body), body: sent, images, status: 0, time: Date.now() };
    if (body !== sent) entry.truncatedFrom = promptTokens(sent) + imageTokens;
    recorded.push(entry);
    const unknown = config.strict ? Object.keys(body).filter((field) => !STRICT_KNOWN_FIELDS.has(field) && !config.strictAlsoKnows.includes(field)) : [];
    if (config.strict && unknown.length > 0) {
      const refusal = unknownFields(config.strict, unknown, body as unknown as Record<string, unknown>);
      entry.status = refusal.status;
      throw refusal;
    }
    const reasoningRefusal = config.reasoningModels.includes(body.model ?? "") ? refusedByReasoningModel(body as unknown as Record<string, unknown>) : null;
    if (config.alternatingModels.includes(body.model ?? "") && !rolesAlternate(body.messages.map((message) => message.role))) {
      entry.status = 400;
      const message = "Conversation roles must alternate user/assistant/user/assistant/...";
      throw new HttpError(400, message, "BadRequestError", undefined, { object: "error", message, type: "BadRequestError", param: null, code: 400 });
    }
    if (config.toollessModels.includes(body.model ?? "") && Array.isArray((body as { tools?: unknown }).tools)) {
      entry.status = 400;
      throw new HttpError(400, `registry.ollama.ai/library/${body.model ?? ""} does not support tools`, "api_error");
    }
    if (reasoningRefusal) {
      entry.status = reasoningRefusal.status;
      throw reasoningRefusal;
    }
    if (images.length > 0 && config.imageModels && !config.imageModels.includes(body.model ?? "")) {
      entry.status = 400;
      throw new HttpError(400, `Invalid content type. image_url is only supported by certain models (not ${body.model ?? "this one"}).`, "invalid_request_error", "image_not_supported");
    }
    counters[kind]++;
    cache =
      kind === "chat"
        ? { ...cache, promptTokens: cache.promptTokens + entry.promptTokens, cachedTokens: cache.cachedTokens + cached }
        : { ...cache, summaryPromptTokens: cache.summaryPromptTokens + entry.promptTokens, summaryCachedTokens: cache.summaryCachedTokens + cached };
    lastOf[kind] = body;

    const window = config.contextWindow;
    if (window !== undefined && entry.promptTokens > window) {
      counters.overWindow++;
      entry.status = 400;
      throw new HttpError(400, contextLengthMessage(window, entry.promptTokens), "invalid_request_error", "context_length_exceeded");
    }

    let reply: ChatReply;
    let finishReason: string;
    if (kind === "summary") {
      // The socket stays open until the client gives up or close() destroys it.
      if (config.hang) return;
      await sleep(config.summaryLatencyMs);
      if (config.failRate > 0 && rng.fail() < config.failRate) {
        counters.failed++;
        entry.status = 500;
        throw new HttpError(500, "The outside model failed on purpose (failRate).", "server_error");
      }
      const title = config.titles === "follow" && asksForTitle(body.messages);
      const summary = summarize(materialOf(body.messages), config.summaryMode, entry.maxTokens, wantsJson(body), rng.mixed, {
        title,
        ...(config.cite ? { cite: config.citeMode } : {}),
      });
      reply = { kind: "text", text: summary.text };
      finishReason = summary.finishReason;
    } else {
      await sleep(config.chatLatencyMs);
      reply = chatReply(body, config.chatMode);
      finishReason = reply.kind === "tool_call" ? "tool_calls" : "stop";
    }
    if (res.destroyed) return;

    const toolCall = reply.kind === "tool_call" ? { id: `tc_${++toolCalls}`, name: reply.name, arguments: reply.arguments } : undefined;
    // Numbered, so that a test can look for each thought in later requests.
    const thought = config.thinking !== "none" && reply.kind === "text" ? `Let me weigh this before I answer (private thought ${++thoughts}).` : "";
    const completion = completionTokens(reply) + (thought ? countText(thought) : 0);
    entry.reply = {
      text: reply.kind === "text" ? reply.text : `${reply.name} ${reply.arguments}`,
      finishReason,
      completionTokens: completion,
      ...(toolCall ? { toolCall } : {}),
      ...(thought ? { thought } : {}),
    };
    if (thought && reply.kind === "text" && config.thinking === "tags") reply = { ...reply, text: `<think>\n${thought}\n</think>\n\n${reply.text}` };
    if (thought && reply.kind === "text" && config.thinking === "unopened") reply = { ...reply, text: `${thought}\n</think>\n\n${reply.text}` };
    const reasoningField = thought && config.thinking === "field" ? thought : undefined;
    entry.status = 200;

    const usage = includeUsage(config.usage, rng.usage)
      ? {
          prompt_tokens: entry.promptTokens,
          completion_tokens: completion,
          total_tokens: entry.promptTokens + completion,
          prompt_tokens_details: { cached_tokens: entry.cachedTokens },
        }
      : undefined;
    const meta = { id: `outside-${++ids}`, created: Math.floor(Date.now() / 1000), model: body.model ?? "outside-small" };

    if (body.stream) {
      await streamReply(res, meta, reply, toolCall, finishReason, body.stream_options?.include_usage ? usage : undefined, rng.chunks, reasoningField ? { text: reasoningField, pause: () => sleep(config.thinkingPauseMs) } : undefined);
    } else {
      sendJson(res, 200, {
        ...meta,
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: toolCall
              ? { role: "assistant", content: null, refusal: null, tool_calls: [{ id: toolCall.id, type: "function", function: { name: toolCall.name, arguments: toolCall.arguments } }] }
              : { role: "assistant", content: reply.kind === "text" ? reply.text : "", refusal: null, ...(reasoningField ? { reasoning_content: reasoningField } : {}) },
            finish_reason: finishReason,
            logprobs: null,
          },
        ],
        ...(usage ? { usage } : {}),
      });
    }
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const route = `${req.method} ${path}`;
    switch (route) {
      case "GET /v1/models":
        return sendJson(res, 200, {
          object: "list",
          data: ["outside-small", "outside-large"].map((id) => ({ id, object: "model", created: 0, owned_by: "outside" })),
        });
      case "POST /v1/chat/completions": {
        const parsed = completionBody.safeParse(await readJson(req));
        if (!parsed.success) throw new HttpError(400, `Invalid request: ${parsed.error.issues[0]?.message ?? "bad body"}`, "invalid_request_error");
        return completions(parsed.data as unknown as CompletionBody, res);
      }
      case "GET /admin/requests":
        return sendJson(res, 200, recorded);
      case "POST /admin/config": {
        const parsed = optionsPatch.safeParse(await readJson(req));
        if (!parsed.success) throw new HttpError(400, `Invalid config: ${parsed.error.issues[0]?.message ?? "bad patch"}`, "invalid_request_error");
        configure(parsed.data as Partial<OutsideModelOptions>);
        return sendJson(res, 200, config);
      }
      case "POST /admin/reset":
        reset();
        return sendJson(res, 200, { ok: true });
      case "GET /admin/stats":
        return sendJson(res, 200, counters);
      case "GET /admin/cache":
        return sendJson(res, 200, cache);
      case "GET /admin/health":
        return sendJson(res, 200, { ok: true });
      default:
        throw new HttpError(404, `No route for ${route}`, "invalid_request_error", "not_found");
    }
  }

  const server = http.createServer((req, res) => {
    // A client that hangs up mid-stream must not crash the server.
    res.on("error", () => {});
    route(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      const failure = error instanceof HttpError ? error : new HttpError(500, String(error), "server_error");
      sendJson(res, failure.status, failure.body ?? { error: { message: failure.message, type: failure.type, ...(failure.code ? { code: failure.code } : {}) } });
    });
  });

  // Past Node's 5 s default, so a client reusing an idle connection never meets it closing.
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(wantedPort, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    configure,
    requests: () => [...recorded],
    reset,
    stats: () => ({ ...counters }),
    promptCache: () => ({ ...cache }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function includeUsage(mode: Config["usage"], rng: () => number): boolean {
  if (mode === "never") return false;
  if (mode === "random") return rng() < 0.5;
  return true;
}

async function streamReply(
  res: http.ServerResponse,
  meta: { id: string; created: number; model: string },
  reply: ChatReply,
  toolCall: { id: string; name: string; arguments: string } | undefined,
  finishReason: string,
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details: { cached_tokens: number } } | undefined,
  rng: () => number,
  reasoning?: { text: string; pause: () => Promise<void> },
): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
  const chunk = (delta: object, finish: string | null) =>
    send({ ...meta, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });

  if (toolCall) {
    const pieces = argumentPieces(toolCall.arguments, rng);
    pieces.forEach((piece, i) => {
      const finish = i === pieces.length - 1 ? finishReason : null;
      if (i === 0) {
        chunk({ role: "assistant", tool_calls: [{ index: 0, id: toolCall.id, type: "function", function: { name: toolCall.name, arguments: piece } }] }, finish);
      } else {
        chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, finish);
      }
    });
  } else {
    // Thinking in its own field comes first, in pieces, as reasoning servers stream it.
    if (reasoning) {
      contentPieces(reasoning.text, rng).forEach((piece, i) => chunk(i === 0 ? { role: "assistant", reasoning_content: piece } : { reasoning_content: piece }, null));
      await reasoning.pause();
      // The client stopped the reply while it was thinking.
      if (res.destroyed) return;
    }
    const pieces = contentPieces(reply.kind === "text" ? reply.text : "", rng);
    pieces.forEach((piece, i) => {
      const lastPiece = i === pieces.length - 1;
      chunk(i === 0 ? { role: "assistant", content: piece } : { content: piece }, lastPiece ? finishReason : null);
      // Empty deltas are legal and some servers send them; clients must skip them.
      if (!lastPiece && rng() < 1 / 7) chunk({}, null);
    });
  }
  if (usage) send({ ...meta, object: "chat.completion.chunk", choices: [], usage });
  res.end("data: [DONE]\n\n");
}

function sendJson(res: http.ServerResponse, status: number, payload: unknown): void {
  if (res.destroyed) return;
  const body = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new HttpError(400, "The request body is not valid JSON.", "invalid_request_error");
  }
}

function withoutUndefined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined | null> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as { [K in keyof T]?: Exclude<T[K], undefined | null> };
}
