// The tools every chat request offers at the least (a turn may offer more: see
// lib/chat/tools), and what they cost in the prompt: the figures the settings pages
// show and a context loaded outside a turn is measured with.
import { COMPRESS_CONTEXT_TOOL } from "../compression/tools";
import { countToolsTokens, REPLY_PRIMING_TOKENS } from "../llm/tokens";
import { builtinTools } from "../llm/tools";

export const TOOL_DEFINITIONS = [...builtinTools.map((tool) => tool.definition), COMPRESS_CONTEXT_TOOL];

/** Tool definitions plus the request's own framing, in our count. */
export const REQUEST_OVERHEAD_TOKENS = countToolsTokens(TOOL_DEFINITIONS) + REPLY_PRIMING_TOKENS;
