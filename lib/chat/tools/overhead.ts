// What a list of tool definitions costs a request, with the request's own framing.
import type { ChatTool } from "../../llm/client";
import { countToolsTokens, REPLY_PRIMING_TOKENS } from "../../llm/tokens";

// Tool lists repeat from turn to turn; counting their definitions once per distinct list
// keeps tokenizing them off the turn's path.
type ListCost = { overhead: number; jsonChars: number };
const costByList = new Map<string, ListCost>();
const MAX_REMEMBERED_LISTS = 500;

/** What a list costs by our count (OpenAI's rendering, with the reply's priming) and the length of its JSON. */
export function listCost(definitions: readonly ChatTool[]): ListCost {
  const key = JSON.stringify(definitions);
  let cost = costByList.get(key);
  if (cost === undefined) {
    cost = { overhead: countToolsTokens(definitions) + REPLY_PRIMING_TOKENS, jsonChars: key.length };
    if (costByList.size >= MAX_REMEMBERED_LISTS) costByList.clear();
    costByList.set(key, cost);
  }
  return cost;
}

export function overheadOf(definitions: readonly ChatTool[]): number {
  return listCost(definitions).overhead;
}
