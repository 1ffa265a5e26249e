// The tools every chat request offers, and what they cost in the prompt: the engine
// counts them as part of the request it must fit under the hard limit.
import { COMPRESS_CONTEXT_TOOL } from "../compression/tools";
import { countToolsTokens, REPLY_PRIMING_TOKENS } from "../llm/tokens";
import { builtinTools } from "../llm/tools";

export const TOOL_DEFINITIONS = [...builtinTools.map((tool) => tool.definition), COMPRESS_CONTEXT_TOOL];

/** Tool definitions plus the request's own framing, in our count. */
export const REQUEST_OVERHEAD_TOKENS = countToolsTokens(TOOL_DEFINITIONS) + REPLY_PRIMING_TOKENS;

/** What a request that offers no tools costs beyond its messages (Continue's). */
export const TOOLLESS_REQUEST_OVERHEAD_TOKENS = REPLY_PRIMING_TOKENS;
