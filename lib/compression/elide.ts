import { formatCount } from "./render";
import type { TokenCounter } from "./types";

/**
 * Cuts the middle out of `content` so it counts at most `maxTokens`; the head and
 * tail survive because that is where instructions and questions usually sit.
 */
export function elideMiddle(content: string, maxTokens: number, tokens: TokenCounter): string {
  const originalTokens = tokens.count(content);
  if (originalTokens <= maxTokens) return content;
  const marker = (elided: number) => `[… ${formatCount(elided)} tokens elided …]`;
  const charsPerToken = content.length / Math.max(1, originalTokens);
  let keepChars = Math.floor((maxTokens - tokens.count(marker(originalTokens)) - 2) * charsPerToken);
  while (keepChars > 0) {
    const head = content.slice(0, Math.ceil(keepChars / 2));
    const tail = content.slice(content.length - Math.floor(keepChars / 2));
    const elided = Math.max(0, originalTokens - tokens.count(head) - tokens.count(tail));
    const candidate = `${head}\n${marker(elided)}\n${tail}`;
    if (tokens.count(candidate) <= maxTokens) return candidate;
    keepChars = Math.floor(keepChars * 0.85) - 1;
  }
  return marker(originalTokens);
}
