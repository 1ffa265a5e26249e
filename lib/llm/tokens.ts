// Token counting with tiktoken's WASM encoders.
//
// Encoders are expensive to build (they parse a ~2 MB rank table) and hold WASM
// memory, so each encoding is created once per process and kept on globalThis:
// Next dev re-evaluates modules on hot reload and would otherwise leak encoders.
//
// Chat accounting follows OpenAI's published recipe (cookbook "How to count tokens
// with tiktoken"): every message costs 3 tokens of framing plus its role and content;
// a request adds 3 tokens that prime the reply. Tool calls and tool definitions are
// not covered by the recipe; we use the cookbook's tool-definition approximation and
// count a tool call as 3 + name + arguments. The test server reports prompt_tokens
// with exactly these functions, so its usage is "honest" by construction.

import { get_encoding, type Tiktoken, type TiktokenEncoding } from "tiktoken";
import type { ChatMessage, TokenCounter } from "../compression/types";
import { normalizeModelName } from "./models";

export type EncodingName = Extract<TiktokenEncoding, "o200k_base" | "cl100k_base">;

/** Framing tokens of one message (<|start|>role ... <|end|>). */
export const TOKENS_PER_MESSAGE = 3;
/** Tokens that prime the assistant's reply, counted once per request. */
export const REPLY_PRIMING_TOKENS = 3;
/** Framing of one tool call inside an assistant message (our approximation). */
export const TOKENS_PER_TOOL_CALL = 3;

const ENCODERS_KEY = Symbol.for("strata.llm.tiktokenEncoders");
type EncoderCache = Map<EncodingName, Tiktoken>;

function encoderCache(): EncoderCache {
  const holder = globalThis as unknown as Record<symbol, EncoderCache | undefined>;
  let cache = holder[ENCODERS_KEY];
  if (!cache) {
    cache = new Map();
    holder[ENCODERS_KEY] = cache;
  }
  return cache;
}

/** The singleton encoder of an encoding (created on first use). */
export function getEncoder(encoding: EncodingName): Tiktoken {
  const cache = encoderCache();
  let encoder = cache.get(encoding);
  if (!encoder) {
    encoder = get_encoding(encoding);
    cache.set(encoding, encoder);
  }
  return encoder;
}


/**
 * gpt-4 / gpt-3.5 (and the old embeddings) use cl100k_base. Everything newer —
 * gpt-4o, gpt-4.1, gpt-5, o-series — uses o200k_base, and so do unknown models:
 * for non-OpenAI models any choice is an estimate and o200k is the current one.
 */
export function encodingForModel(model?: string): EncodingName {
  if (!model) return "o200k_base";
  const name = normalizeModelName(model);
  if (name.startsWith("gpt-4o") || name.startsWith("gpt-4.") || name.startsWith("chatgpt-4o")) return "o200k_base";
  if (name.startsWith("gpt-4") || name.startsWith("gpt-3.5") || name.startsWith("gpt-35")) return "cl100k_base";
  if (name.startsWith("text-embedding-") || name.startsWith("text-davinci-")) return "cl100k_base";
  return "o200k_base";
}

/**
 * Tokens of plain text. `encode_ordinary` treats "<|endoftext|>" and friends as
 * text, as the API does with user content (plain `encode` would throw on them).
 */
export function countTextTokens(text: string, model?: string): number {
  if (!text) return 0;
  return getEncoder(encodingForModel(model)).encode_ordinary(text).length;
}

/** Tokens one message costs inside a request (framing + role + content + tool calls). */
export function countMessageTokens(message: ChatMessage, model?: string): number {
  let tokens = TOKENS_PER_MESSAGE + countTextTokens(message.role, model) + countTextTokens(message.content ?? "", model);
  if (message.role === "assistant" && message.tool_calls) {
    for (const call of message.tool_calls) {
      tokens +=
        TOKENS_PER_TOOL_CALL + countTextTokens(call.function.name, model) + countTextTokens(call.function.arguments, model);
    }
  }
  return tokens;
}

/** The subset of an OpenAI function tool definition that the estimate reads. */
export type ToolDefinitionLike = {
  type?: string;
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
};

/**
 * Cookbook approximation of what function definitions add to the prompt
 * (7 tokens per function for o200k models, 10 for cl100k, 3 per property, 12 at the end).
 */
export function countToolsTokens(tools: readonly ToolDefinitionLike[] | undefined, model?: string): number {
  if (!tools || tools.length === 0) return 0;
  const funcInit = encodingForModel(model) === "cl100k_base" ? 10 : 7;
  const propInit = 3;
  const propKey = 3;
  const enumInit = -3;
  const enumItem = 3;
  const funcEnd = 12;
  let total = 0;
  for (const tool of tools) {
    const fn = tool.function;
    total += funcInit + countTextTokens(`${fn.name}:${stripDot(fn.description ?? "")}`, model);
    const properties = (fn.parameters?.properties ?? {}) as Record<string, Record<string, unknown>>;
    const keys = Object.keys(properties);
    if (keys.length > 0) {
      total += propInit;
      for (const key of keys) {
        const prop = properties[key] ?? {};
        total += propKey;
        if (Array.isArray(prop.enum)) {
          total += enumInit;
          for (const item of prop.enum) total += enumItem + countTextTokens(String(item), model);
        }
        const type = typeof prop.type === "string" ? prop.type : "";
        const description = typeof prop.description === "string" ? prop.description : "";
        total += countTextTokens(`${key}:${type}:${stripDot(description)}`, model);
      }
    }
  }
  return total + funcEnd;
}

function stripDot(text: string): string {
  return text.endsWith(".") ? text.slice(0, -1) : text;
}

/** Prompt tokens of a whole request: messages + reply priming (+ tool definitions when given). */
export function countRequestTokens(
  messages: readonly ChatMessage[],
  model?: string,
  tools?: readonly ToolDefinitionLike[],
): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) total += countMessageTokens(message, model);
  return total + countToolsTokens(tools, model);
}

/** The engine's TokenCounter: plain-text counts with the model's encoding. */
export function createTokenCounter(model?: string): TokenCounter {
  const encoding = encodingForModel(model);
  return {
    count(text: string): number {
      if (!text) return 0;
      return getEncoder(encoding).encode_ordinary(text).length;
    },
  };
}

/** Default counter (o200k_base), shared. */
export const tokenCounter: TokenCounter = createTokenCounter();
