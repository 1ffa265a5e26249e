// The tools every chat request offers at the least (a turn may offer more: see
// lib/chat/tools), and what they cost in the prompt: the figures the settings pages
// show and a context loaded outside a turn is measured with.
import { recallByTools, type CompressionSettings } from "../compression/settings";
import { COMPRESS_CONTEXT_TOOL } from "../compression/tools";
import { countToolsTokens, REPLY_PRIMING_TOKENS } from "../llm/tokens";
import type { ChatTool } from "../llm/client";
import { builtinTools } from "../llm/tools";
import { HISTORY_TOOL_DEFINITIONS } from "./tools/history-definitions";

export const TOOL_DEFINITIONS = [...builtinTools.map((tool) => tool.definition), COMPRESS_CONTEXT_TOOL];

/** Tool definitions plus the request's own framing, in our count. */
export const REQUEST_OVERHEAD_TOKENS = countToolsTokens(TOOL_DEFINITIONS) + REPLY_PRIMING_TOKENS;

/** The same with the history tools, in the order a turn offers them. */
const WITH_HISTORY_DEFINITIONS = [...TOOL_DEFINITIONS, ...HISTORY_TOOL_DEFINITIONS];
const WITH_HISTORY_TOKENS = countToolsTokens(WITH_HISTORY_DEFINITIONS) + REPLY_PRIMING_TOKENS;

/**
 * What a context measured outside a turn (the meter, background compaction) is counted
 * with: what the next turn will offer. The history tools are offered once something is
 * compressed and the settings allow them, so they count exactly then; counted before,
 * the meter would show the threshold reached while the turn, without them, stays under it.
 */
export function requestOverheadTokens(settings: Pick<CompressionSettings, "recallMode">, compressed: boolean, contextWindow: number): number {
  return compressed && recallByTools(settings, contextWindow) ? WITH_HISTORY_TOKENS : REQUEST_OVERHEAD_TOKENS;
}

export type OverheadTokens = { plain: number; withHistoryTools: number };

/** Both figures, for a page that works out the rule per model (recallByTools) as settings are edited. */
export const OVERHEAD_TOKENS: OverheadTokens = { plain: REQUEST_OVERHEAD_TOKENS, withHistoryTools: WITH_HISTORY_TOKENS };

/** The definitions themselves beside their cost: a summary request that reuses the chat request's prefix offers the same. */
export function offeredOutsideTurn(
  settings: Pick<CompressionSettings, "recallMode">,
  compressed: boolean,
  contextWindow: number,
): { definitions: readonly ChatTool[]; overheadTokens: number } {
  return compressed && recallByTools(settings, contextWindow)
    ? { definitions: WITH_HISTORY_DEFINITIONS, overheadTokens: WITH_HISTORY_TOKENS }
    : { definitions: TOOL_DEFINITIONS, overheadTokens: REQUEST_OVERHEAD_TOKENS };
}
