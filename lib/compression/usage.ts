import type { CallUsage, Summarizer } from "./types";

/** The sum of several calls' usage. */
export function addUsage(a: CallUsage, b: CallUsage): CallUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  };
}

/**
 * A summarizer that adds up what its calls cost and names the conversation on each
 * request: one per piece of writing, since a summary (a strategy's retries, its title)
 * may take several calls and its record and attempt carry their sum.
 */
export function meteredSummarizer(inner: Summarizer, cacheScope: string): { summarizer: Summarizer; usage: () => CallUsage | undefined } {
  let total: CallUsage | undefined;
  return {
    summarizer: {
      async complete(request) {
        const reply = await inner.complete({ ...request, cacheScope });
        if (reply?.usage) total = total ? addUsage(total, reply.usage) : reply.usage;
        return reply;
      },
    },
    usage: () => total,
  };
}
