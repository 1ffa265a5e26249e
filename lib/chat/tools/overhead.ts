// What a list of tool definitions costs a request, with the request's own framing.
import type { ChatTool } from "../../llm/client";
import { countToolsTokens, REPLY_PRIMING_TOKENS } from "../../llm/tokens";

// Tool lists repeat from turn to turn; counting their definitions once per distinct list
// keeps tokenizing them off the turn's path.
const overheadByList = new Map<string, number>();
const MAX_REMEMBERED_LISTS = 500;

export function overheadOf(definitions: readonly ChatTool[]): number {
  const key = JSON.stringify(definitions);
  let tokens = overheadByList.get(key);
  if (tokens === undefined) {
    tokens = countToolsTokens(definitions) + REPLY_PRIMING_TOKENS;
    if (overheadByList.size >= MAX_REMEMBERED_LISTS) overheadByList.clear();
    overheadByList.set(key, tokens);
  }
  return tokens;
}
