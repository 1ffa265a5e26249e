import { cutOutsideFacts, extractFacts } from "./facts";
import { formatCount } from "./render";
import type { TokenCounter } from "./types";

/**
 * Cuts the middle out of `content` so it counts at most `maxTokens`; the head and
 * tail survive because that is where instructions and questions usually sit. Facts
 * from the cut part follow the marker, and no cut splits a fact.
 */
export function elideMiddle(
  content: string,
  maxTokens: number,
  tokens: TokenCounter,
  preserveFacts = true,
  marker: (elided: number) => string = (elided) => `[… ${formatCount(elided)} tokens elided …]`,
): string {
  const originalTokens = tokens.count(content);
  if (originalTokens <= maxTokens) return content;
  const charsPerToken = content.length / Math.max(1, originalTokens);
  let keepChars = Math.floor((maxTokens - tokens.count(marker(originalTokens)) - 2) * charsPerToken);
  while (keepChars > 0) {
    const headEnd = cutOutsideFacts(content, Math.ceil(keepChars / 2));
    const tailStart = Math.max(headEnd, cutOutsideFacts(content, content.length - Math.floor(keepChars / 2)));
    const head = content.slice(0, headEnd);
    const tail = content.slice(tailStart);
    const keptFacts = new Set(extractFacts(`${head}\n${tail}`));
    const lostFacts = preserveFacts ? extractFacts(content.slice(headEnd, tailStart)).filter((fact) => !keptFacts.has(fact)) : [];
    const elided = Math.max(0, originalTokens - tokens.count(head) - tokens.count(tail));
    const candidate = [head, marker(elided), ...lostFacts, tail].join("\n");
    if (tokens.count(candidate) <= maxTokens) return candidate;
    keepChars = Math.floor(keepChars * 0.85) - 1;
  }
  const facts = preserveFacts ? extractFacts(content) : [];
  const withFacts = [marker(originalTokens), ...facts].join("\n");
  return tokens.count(withFacts) <= maxTokens ? withFacts : marker(originalTokens);
}
