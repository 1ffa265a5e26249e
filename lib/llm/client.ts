// The ONE place that creates `openai` clients.
//
// Endpoint selection (read from the environment on every getModelEndpoint() call):
//   OPENAI_API_KEY set             → that key, OPENAI_BASE_URL or api.openai.com     (demo: false)
//   only OPENAI_BASE_URL set       → that URL with a placeholder key (Ollama, vLLM,
//                                    LM Studio and friends don't check keys)         (demo: false)
//   neither                        → the offline demo model: the demo server started
//                                    in-process on 127.0.0.1 with an ephemeral port  (demo: true)
// The demo server is a singleton on globalThis because Next dev re-evaluates this
// module on hot reload and must not start a second server each time.
//
// Retries: the openai client retries 408/409/429/5xx and connection errors. That's
// worth it against a remote API, but against a local server it only multiplies the
// wait (and would swallow the one-shot faults tests inject), so loopback endpoints
// default to 0 retries and others to 2; STRATA_MODEL_MAX_RETRIES overrides both.

import OpenAI from "openai";
import type {
  ChatCompletionContentPartImage,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { ChatMessage, ToolCall } from "../compression/types";
import { config } from "../config";
import { abortedError, malformedError, timeoutError, toModelError, type AbortContext } from "./errors";
import { DEMO_MODEL, normalizeModelName } from "./models";
import type { ImageDetail } from "./image-tokens";
import { span } from "../log/timing";
import type { DemoServer } from "./demo-server";
import { promptCacheKey, usageOf } from "./usage";
import { refusesTools, sendToServer } from "./strict-servers";
import { ThinkingSplitter, type ReasoningPart } from "./reasoning";
import { chatChunks } from "./chat-stream";
import { modelFetch, STREAMED_REPLY } from "./model-fetch";

export { ModelError, isModelError, type ModelErrorKind } from "./errors";

export type ModelEndpoint = { client: OpenAI; baseURL: string; demo: boolean };

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Sent to servers that don't check keys; the openai client refuses to run without one. */
export const PLACEHOLDER_API_KEY = "not-needed";
export const DEMO_API_KEY = "strata-demo-key";
/** Idle timeout of a chat stream: no byte from the server for this long ends it. */
export const DEFAULT_CHAT_TIMEOUT_MS = 60_000;
export const LIST_MODELS_TIMEOUT_MS = 3000;
/** The demo server streams visibly: a pause before each chunk, and a noticeable summary wait. */
export const DEMO_SERVER_LATENCY = { chatLatencyMs: 15, summaryLatencyMs: 400, tokensPerChunk: 2 } as const;

type Env = Record<string, string | undefined>;

/** True when no key and no base URL are configured: the app talks to its built-in demo model. */
export function isDemoMode(env: Env = process.env): boolean {
  const { OPENAI_API_KEY, OPENAI_BASE_URL } = config(env);
  return !OPENAI_API_KEY && !OPENAI_BASE_URL;
}

/** STRATA_DEFAULT_MODEL, else "strata-demo" in demo mode, else "gpt-4o-mini". */
export function defaultModel(env: Env = process.env): string {
  return config(env).STRATA_DEFAULT_MODEL ?? (isDemoMode(env) ? DEMO_MODEL : "gpt-4o-mini");
}

/**
 * The model a new conversation starts with: defaultModel(), unless Strata talks to a
 * server that lists its models and that one is not among them (an Ollama or vLLM server
 * has no gpt-4o-mini, and the first message would fail) — then the first model the
 * server lists. STRATA_DEFAULT_MODEL is taken as set; a server that lists nothing keeps the default.
 */
export async function startingModel(env: Env = process.env, endpoint?: ModelEndpoint): Promise<string> {
  const configured = defaultModel(env);
  if (config(env).STRATA_DEFAULT_MODEL || isDemoMode(env)) return configured;
  const models = await listModels(endpoint ?? (await getModelEndpoint(env)));
  return models?.length && !models.includes(configured) ? models[0]! : configured;
}

function isLoopback(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname;
    return host === "localhost" || host === "::1" || host === "[::1]" || host.startsWith("127.");
  } catch {
    return false;
  }
}

function maxRetriesFor(baseURL: string, env: Env): number {
  return config(env).STRATA_MODEL_MAX_RETRIES ?? (isLoopback(baseURL) ? 0 : 2);
}

/** A client for an explicit endpoint (tests, scripts). Not cached. */
export function createModelEndpoint(options: {
  baseURL: string;
  apiKey?: string;
  demo?: boolean;
  maxRetries?: number;
}): ModelEndpoint {
  const client = new OpenAI({
    apiKey: options.apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: options.baseURL,
    maxRetries: options.maxRetries ?? maxRetriesFor(options.baseURL, process.env),
    // We report failures as ModelError; the client's own console logging would duplicate them.
    logLevel: "off",
    // Our own idle timeout and callers' signals bound every call; this only backs them up.
    timeout: 10 * 60_000,
    fetch: modelFetch,
  });
  return { client, baseURL: options.baseURL, demo: options.demo ?? false };
}

const endpointCache = new Map<string, ModelEndpoint>();

function cachedEndpoint(baseURL: string, apiKey: string, demo: boolean, env: Env): ModelEndpoint {
  const maxRetries = maxRetriesFor(baseURL, env);
  const key = `${baseURL}\n${apiKey}\n${maxRetries}\n${demo}`;
  let endpoint = endpointCache.get(key);
  if (!endpoint) {
    endpoint = createModelEndpoint({ baseURL, apiKey, demo, maxRetries });
    endpointCache.set(key, endpoint);
  }
  return endpoint;
}

const DEMO_SERVER_KEY = Symbol.for("strata.llm.demoServer");
type DemoHolder = Record<symbol, Promise<DemoServer> | undefined>;

/** Starts (once per process) and returns the in-process demo server. */
export function getDemoServer(): Promise<DemoServer> {
  const holder = globalThis as unknown as DemoHolder;
  let server = holder[DEMO_SERVER_KEY];
  if (!server) {
    // Loaded lazily: with a real endpoint configured the server code is never needed.
    server = import("./demo-server").then(({ startDemoServer }) =>
      startDemoServer({ host: "127.0.0.1", port: 0, unref: true, ...DEMO_SERVER_LATENCY }),
    );
    // A failed start must not poison the singleton: the next call tries again.
    server.catch(() => {
      if (holder[DEMO_SERVER_KEY] === server) holder[DEMO_SERVER_KEY] = undefined;
    });
    holder[DEMO_SERVER_KEY] = server;
  }
  return server;
}

/** The configured endpoint (see the top of this file). */
export async function getModelEndpoint(env: Env = process.env): Promise<ModelEndpoint> {
  const { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: baseURL } = config(env);
  if (apiKey) return cachedEndpoint(baseURL ?? OPENAI_DEFAULT_BASE_URL, apiKey, false, env);
  if (baseURL) return cachedEndpoint(baseURL, PLACEHOLDER_API_KEY, false, env);
  const server = await getDemoServer();
  return cachedEndpoint(server.url, DEMO_API_KEY, true, env);
}

export type ChatStreamEvent =
  | { type: "text"; delta: string }
  /** The model's thinking (lib/llm/reasoning.ts): shown folded, stored apart, never sent back. */
  | { type: "reasoning"; delta: string }
  | { type: "tool_calls"; calls: ToolCall[] }
  | { type: "usage"; promptTokens: number; cachedTokens: number; completionTokens: number }
  | { type: "done"; finishReason: string };

export type ChatTool = ChatCompletionFunctionTool;

export type StreamChatOptions = {
  model: string;
  messages: readonly ChatMessage[];
  tools?: readonly ChatTool[];
  signal?: AbortSignal;
  /** Idle timeout: the longest wait for the first or the next chunk. Default 60 s. */
  timeoutMs?: number;
  temperature?: number;
  maxTokens?: number;
  /** Defaults to getModelEndpoint(). */
  endpoint?: ModelEndpoint;
  /** The conversation the call is for: the prompt-cache key is derived from it. */
  cacheScope?: string;
  /** Images sent with user messages, by the message's index in `messages` (only for a model that takes images). */
  images?: ReadonlyMap<number, readonly WireImage[]>;
};

/** An image as a request carries it: inline, as a data: URL (servers need not fetch anything). */
export type WireImage = { mediaType: string; bytes: Uint8Array; detail: ImageDetail };

function imagePart(image: WireImage): ChatCompletionContentPartImage {
  return { type: "image_url", image_url: { url: `data:${image.mediaType};base64,${Buffer.from(image.bytes).toString("base64")}`, detail: image.detail } };
}

/**
 * Our ChatMessage in the wire shape (drops empty tool_calls, which OpenAI rejects); a
 * user message with images becomes content parts: its text, then each image.
 */
export function toWireMessages(messages: readonly ChatMessage[], images?: ReadonlyMap<number, readonly WireImage[]>): ChatCompletionMessageParam[] {
  return messages.map((message, index): ChatCompletionMessageParam => {
    const attached = images?.get(index);
    switch (message.role) {
      case "user":
        return attached?.length
          ? { role: "user", content: [...(message.content ? [{ type: "text" as const, text: message.content }] : []), ...attached.map(imagePart)] }
          : { role: "user", content: message.content };
      case "assistant":
        return message.tool_calls && message.tool_calls.length > 0
          ? { role: "assistant", content: message.content, tool_calls: message.tool_calls }
          : { role: "assistant", content: message.content ?? "" };
      case "tool":
        return { role: "tool", content: message.content, tool_call_id: message.tool_call_id };
      default:
        return { role: message.role, content: message.content };
    }
  });
}

/** o-series and gpt-5 reasoning models reject any temperature but the default. */
export function supportsTemperature(model: string): boolean {
  const name = normalizeModelName(model);
  if (/^o\d/.test(name)) return false;
  return !(name.startsWith("gpt-5") && !name.startsWith("gpt-5-chat"));
}

/**
 * OpenAI deprecated max_tokens (o-series reject it) in favour of max_completion_tokens,
 * but many OpenAI-compatible servers only know max_tokens.
 */
export function maxTokensParam(endpoint: ModelEndpoint, maxTokens: number): { max_tokens: number } | { max_completion_tokens: number } {
  let official = false;
  try {
    official = new URL(endpoint.baseURL).hostname === "api.openai.com";
  } catch {
    official = false;
  }
  return official ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens };
}

/**
 * Whether the configured model server refused tools for `model` (learned from its first
 * refusal, for the life of the process): a turn then offers none, and does not tell the
 * model about tools it cannot call.
 */
export async function modelRefusesTools(model: string): Promise<boolean> {
  return refusesTools((await getModelEndpoint()).client, model);
}

/**
 * Streams one chat completion as typed events: text deltas as they arrive, the tool
 * calls assembled from their deltas (once, at the finish chunk), usage, then done.
 * Throws ModelError. Breaking out of the loop aborts the HTTP request.
 */
export async function* streamChat(options: StreamChatOptions): AsyncGenerator<ChatStreamEvent, void, undefined> {
  if (options.signal?.aborted) throw abortedError(options.signal.reason);
  const endpoint = options.endpoint ?? (await getModelEndpoint());
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHAT_TIMEOUT_MS;
  const context: AbortContext = { timedOut: false, timeoutMs, baseURL: endpoint.baseURL };
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });

  // The idle timer runs only while we wait for the server, never while the
  // consumer holds a yielded event (slow consumers must not cause timeouts).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const disarm = () => clearTimeout(timer);
  const arm = () => {
    disarm();
    timer = setTimeout(() => {
      context.timedOut = true;
      controller.abort();
    }, timeoutMs);
  };

  const params: ChatCompletionCreateParamsStreaming = {
    model: options.model,
    messages: toWireMessages(options.messages, options.images),
    stream: true,
    stream_options: { include_usage: true },
    ...(options.tools && options.tools.length > 0 ? { tools: [...options.tools] } : {}),
    ...(options.temperature !== undefined && supportsTemperature(options.model) ? { temperature: options.temperature } : {}),
    ...(options.maxTokens !== undefined ? maxTokensParam(endpoint, options.maxTokens) : {}),
    ...promptCacheKey(options.cacheScope),
  };

  // Whether the server's reply was read to its end: only a stream left early needs the abort
  // that closes it (an abort builds a DOMException and wakes every listener, once a turn each).
  let ended = false;
  try {
    arm();
    let response: Response;
    try {
      // Timed apart from the stream: serializing and sending the request and the server's wait before its first byte.
      response = await span("modelRequest", () =>
        sendToServer(endpoint.client, params, (sent) => endpoint.client.chat.completions.create(sent, { signal: controller.signal, fetchOptions: STREAMED_REPLY }).asResponse()),
      );
    } catch (error) {
      throw toModelError(error, context);
    }
    const iterator = chatChunks(response);
    const calls = new Map<number, ToolCall>();
    const thinkingSplitter = new ThinkingSplitter();
    let callsEmitted = false;
    let finishReason: string | undefined;
    let saidComplete = false;

    while (true) {
      let result: IteratorResult<OpenAI.Chat.Completions.ChatCompletionChunk, boolean>;
      try {
        result = await iterator.next();
      } catch (error) {
        throw toModelError(error, context);
      }
      disarm();
      if (result.done) {
        ended = true;
        saidComplete = result.value;
        break;
      }
      const chunk = result.value;
      const events: ChatStreamEvent[] = [];
      for (const choice of chunk.choices ?? []) {
        if (choice.index !== 0) continue;
        const delta = choice.delta ?? {};
        const thinking = reasoningField(delta);
        if (thinking) events.push({ type: "reasoning", delta: thinking });
        if (delta.content) for (const part of thinkingSplitter.push(delta.content)) events.push(partEvent(part));
        if (delta.refusal) events.push({ type: "text", delta: delta.refusal });
        for (const part of delta.tool_calls ?? []) {
          const call = calls.get(part.index) ?? { id: "", name: "", arguments: "" };
          if (part.id) call.id = part.id;
          if (part.function?.name) call.name += part.function.name;
          if (part.function?.arguments) call.arguments += part.function.arguments;
          calls.set(part.index, call);
        }
        if (choice.finish_reason) {
          finishReason = choice.finish_reason;
          if (calls.size > 0 && !callsEmitted) {
            callsEmitted = true;
            events.push({ type: "tool_calls", calls: assembleCalls(calls) });
          }
        }
      }
      const usage = chunk.usage ? usageOf(chunk.usage) : null;
      if (usage) events.push({ type: "usage", ...usage });
      for (const event of events) yield event;
      arm();
    }

    // An abort can also end the stream without an error (between two reads); turn that into the right error.
    if (controller.signal.aborted) throw context.timedOut ? timeoutError(timeoutMs) : abortedError(options.signal?.reason);
    // A server that ends with [DONE] but never names a finish reason (null or "" in every
    // chunk) has still sent its whole reply; without either, the stream was cut off.
    if (!finishReason && !saidComplete) throw malformedError("the stream ended before the reply was complete");
    finishReason ||= calls.size > 0 ? "tool_calls" : "stop";
    for (const part of thinkingSplitter.end()) yield partEvent(part);
    if (calls.size > 0 && !callsEmitted) yield { type: "tool_calls", calls: assembleCalls(calls) };
    yield { type: "done", finishReason };
  } finally {
    disarm();
    options.signal?.removeEventListener("abort", onAbort);
    // Stops the HTTP stream when the consumer broke out early or an error ended the read.
    if (!ended) controller.abort();
  }
}

/** The delta's thinking, under either name servers give it (not in the SDK's types). */
function reasoningField(delta: object): string {
  const fields = delta as { reasoning_content?: unknown; reasoning?: unknown };
  const value = fields.reasoning_content ?? fields.reasoning;
  return typeof value === "string" ? value : "";
}

const partEvent = (part: ReasoningPart): ChatStreamEvent => (part.kind === "text" ? { type: "text", delta: part.text } : { type: "reasoning", delta: part.text });

function assembleCalls(calls: Map<number, ToolCall>): ToolCall[] {
  return [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({ id: call.id || `call_${index}`, name: call.name, arguments: call.arguments || "{}" }));
}

/** Model ids from GET /models, or null when the endpoint doesn't answer within 3 s. */
// Pages and settings validation ask for the model list; the endpoint is asked at most
// every few minutes (or every 30 s while it does not answer), not on every request.
const MODEL_LIST_TTL_MS = 5 * 60_000;
const MODEL_LIST_RETRY_MS = 30_000;
const modelLists = new Map<string, { models: string[] | null; until: number }>();

export async function listModels(endpoint?: ModelEndpoint): Promise<string[] | null> {
  let target: ModelEndpoint;
  try {
    target = endpoint ?? (await getModelEndpoint());
  } catch {
    return null;
  }
  const cached = modelLists.get(target.baseURL);
  if (cached && cached.until > Date.now()) return cached.models;
  let models: string[] | null = null;
  try {
    const page = await target.client.models.list({
      signal: AbortSignal.timeout(LIST_MODELS_TIMEOUT_MS),
      timeout: LIST_MODELS_TIMEOUT_MS,
      maxRetries: 0,
    });
    models = page.data.map((model) => model.id);
  } catch {
    models = null;
  }
  modelLists.set(target.baseURL, { models, until: Date.now() + (models ? MODEL_LIST_TTL_MS : MODEL_LIST_RETRY_MS) });
  return models;
}
