// Token counting with tiktoken's encodings.
//
// Counts are tiktoken's exactly, in time linear in the text (./token-count.mjs: long
// pre-tokenizer pieces, where tiktoken's merge loop is quadratic, are merged with a
// heap instead). Even linear, 100,000 characters of the worst kind (Japanese or
// Chinese without punctuation) take about 60 ms, so the call sites that may get such a
// text (storing a message, a system prompt) count through countTextTokensAsync, which
// hands texts from ASYNC_MIN_CHARS up to worker threads (./token-pool.ts), and the
// engine's synchronous counter remembers the long texts it has counted (and those
// counted on a worker), since it measures the same oversized message on every turn.
//
// Chat accounting follows OpenAI's published recipe (cookbook "How to count tokens
// with tiktoken"): every message costs 3 tokens of framing plus its role and content;
// a request adds 3 tokens that prime the reply. Tool calls and tool definitions are
// not covered by the recipe; we use the cookbook's tool-definition approximation and
// count a tool call as 3 + name + arguments. Servers count with their own tokenizers;
// the engine calibrates against what they report (compression/measure.ts).

import type { Tiktoken } from "tiktoken";
import type { ChatMessage, TokenCounter } from "../compression/types";
import { ContentCache } from "./count-cache";
import { normalizeModelName } from "./models";
import { countText, tiktokenEncoder, type EncodingName } from "./token-count.mjs";

export type { EncodingName };

/** Framing tokens of one message (<|start|>role ... <|end|>). */
export const TOKENS_PER_MESSAGE = 3;
/** Tokens that prime the assistant's reply, counted once per request. */
export const REPLY_PRIMING_TOKENS = 3;
/** Framing of one tool call inside an assistant message (our approximation). */
export const TOKENS_PER_TOOL_CALL = 3;

/** tiktoken's encoder of an encoding, one per process (created on first use). */
export function getEncoder(encoding: EncodingName): Tiktoken {
  return tiktokenEncoder(encoding);
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
  return countInEncoding(text, encodingForModel(model));
}

/** Texts from this length on are remembered (hashing one costs ~1/100 of counting it). */
export const REMEMBERED_MIN_CHARS = 10_000;

// The engine counts an oversized message again on every measure of every turn (it
// elides its middle: the whole text, then head and tail, each time); these counts are
// remembered, and a stored message's count is entered when it is stored.
const longCounts = new ContentCache<number>(256);

function countInEncoding(text: string, encoding: EncodingName): number {
  if (text.length < REMEMBERED_MIN_CHARS) return countText(text, encoding);
  const key = ContentCache.key(text, encoding);
  let count = longCounts.get(key);
  if (count === undefined) {
    count = countText(text, encoding);
    longCounts.set(key, count);
  }
  return count;
}

/** Enters a long text's count made elsewhere (a worker thread), so that the engine need not count it again. */
export function rememberTextTokens(text: string, model: string | undefined, count: number): void {
  if (text.length >= REMEMBERED_MIN_CHARS) longCounts.set(ContentCache.key(text, encodingForModel(model)), count);
}

/**
 * What one message's count is made of: fixed framing (the message's, each tool call's)
 * plus the tokens of each text (role, content, tool names and arguments).
 */
export function messageTexts(message: ChatMessage): { framing: number; texts: string[] } {
  let framing = TOKENS_PER_MESSAGE;
  const texts = [message.role, message.content ?? ""];
  if (message.role === "assistant" && message.tool_calls) {
    for (const call of message.tool_calls) {
      framing += TOKENS_PER_TOOL_CALL;
      texts.push(call.function.name, call.function.arguments);
    }
  }
  return { framing, texts };
}

/** Tokens one message costs inside a request (framing + role + content + tool calls). */
export function countMessageTokens(message: ChatMessage, model?: string): number {
  const { framing, texts } = messageTexts(message);
  return texts.reduce((sum, text) => sum + countTextTokens(text, model), framing);
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
    count: (text: string): number => countInEncoding(text, encoding),
  };
}

/** Default counter (o200k_base), shared. */
export const tokenCounter: TokenCounter = createTokenCounter();
