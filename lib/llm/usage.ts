// The usage a server reports, and the prompt-cache key Strata sends with each request.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { CallUsage } from "../compression/types";
import { config } from "../config";

const count = z.number().int().nonnegative();

// Servers differ in what they report: cached_tokens is OpenAI's (and vLLM's, when
// prefix caching is on); many servers send no details at all, which means nothing cached.
const usageSchema = z.object({
  prompt_tokens: count,
  completion_tokens: count,
  prompt_tokens_details: z.object({ cached_tokens: count.nullish() }).nullish(),
});

/** The usage block of a completion as our figures; null when it is missing or malformed (a bad count is not a count). */
export function usageOf(reported: unknown): CallUsage | null {
  const parsed = usageSchema.safeParse(reported);
  if (!parsed.success) return null;
  const { prompt_tokens, completion_tokens, prompt_tokens_details } = parsed.data;
  // A server that claims more cached than prompt tokens is held to its prompt count.
  const cached = Math.min(prompt_tokens_details?.cached_tokens ?? 0, prompt_tokens);
  return { promptTokens: prompt_tokens, cachedTokens: cached, completionTokens: completion_tokens };
}

/**
 * OpenAI's prompt_cache_key for a conversation's requests, chat and summary alike, so
 * they are routed to the same cache. A hash rather than the id: the provider needs no
 * handle on our records. Off (STRATA_PROMPT_CACHE_KEY=0) for servers that reject
 * parameters they do not know.
 */
export function promptCacheKey(conversationId: string | undefined, env: Record<string, string | undefined> = process.env): { prompt_cache_key: string } | Record<string, never> {
  if (!conversationId || config(env).STRATA_PROMPT_CACHE_KEY === "0") return {};
  return { prompt_cache_key: `strata-${createHash("sha256").update(conversationId).digest("hex").slice(0, 32)}` };
}
