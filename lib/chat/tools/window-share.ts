// Tool definitions go out with every request of a conversation. A tool server lists
// what it lists: the demo's two servers take about 1,700 tokens by OpenAI's way of
// counting and twice that as JSON, which is how servers that render tools into their
// chat template (llama.cpp, Ollama, vLLM) read them. At a 2k window that left no room for
// the conversation (every request was refused, while each turn summarized and cut its own
// message first); at 4k nearly every turn wrote a summary. So what a request offers is
// held to a share of the model's window: the tool servers are taken in the order they are
// listed, each while its tools still fit beside the ones taken; when Strata's own tools
// alone do not fit, no tool is offered. The user is told.
import type { ChatTool } from "../../llm/client";
import { REPLY_PRIMING_TOKENS } from "../../llm/tokens";
import { listCost } from "./overhead";

/** Tool definitions take at most this share of the model's context window. */
export const MAX_TOOLS_SHARE = 1 / 3;

/** What was not offered, and why: all definitions would have cost `tokens`, over `limit`. */
export type ToolsLeftOut = {
  /** The tool servers whose tools were left out, in the order they are listed. */
  servers: string[];
  /** No tool at all is offered (Strata's own alone are over the limit). */
  allTools: boolean;
  tokens: number;
  limit: number;
  model: string;
  contextWindow: number;
};

type Offered = { definition: ChatTool; server?: string | undefined };

const JSON_CHARS_PER_TOKEN = 4;

/**
 * What definitions may cost a server: the more of our count (OpenAI's rendering) and
 * their JSON's length in tokens of four characters. Small windows are mostly served by
 * the servers that send the JSON; both counts are fixed for a list, so the offer does not
 * change from turn to turn (a factor learned from reported usage would move with it).
 */
function costOf(tools: readonly Offered[]): number {
  if (tools.length === 0) return 0;
  const { overhead, jsonChars } = listCost(tools.map((tool) => tool.definition));
  return Math.max(overhead - REPLY_PRIMING_TOKENS, Math.ceil(jsonChars / JSON_CHARS_PER_TOKEN));
}

/** `tools` as a request may offer them at `contextWindow`, and what was left out (null: nothing). */
export function fitToWindow<T extends Offered>(tools: readonly T[], model: string, contextWindow: number): { tools: readonly T[]; leftOut: ToolsLeftOut | null } {
  const limit = Math.floor(contextWindow * MAX_TOOLS_SHARE);
  const tokens = costOf(tools);
  if (tokens <= limit) return { tools, leftOut: null };
  const own = tools.filter((tool) => tool.server === undefined);
  const servers = [...new Set(tools.flatMap((tool) => (tool.server === undefined ? [] : [tool.server])))];
  const details = { tokens, limit, model, contextWindow };
  if (costOf(own) > limit) return { tools: [], leftOut: { servers, allTools: true, ...details } };
  const taken = new Set<string>();
  const left: string[] = [];
  for (const server of servers) {
    const offered = tools.filter((tool) => tool.server === undefined || taken.has(tool.server) || tool.server === server);
    if (costOf(offered) <= limit) taken.add(server);
    else left.push(server);
  }
  return { tools: tools.filter((tool) => tool.server === undefined || taken.has(tool.server)), leftOut: { servers: left, allTools: false, ...details } };
}

const count = (tokens: number) => tokens.toLocaleString("en-US");

function listed(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`);
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/** What the user is told when a turn offers less than the conversation has switched on. */
export function leftOutNotice(left: ToolsLeftOut): string {
  const room = `more than a third of the ${count(left.contextWindow)}-token context window of ${left.model}, which leaves too little room for the conversation`;
  if (left.allTools) {
    return `No tools were offered for this reply: their definitions would take about ${count(left.tokens)} tokens, ${room}. Use a model with a larger window (Settings, context windows) to get them back.`;
  }
  const servers = `${left.servers.length === 1 ? "tool server" : "tool servers"} ${listed(left.servers)}`;
  return (
    `The tools of ${servers} were not offered for this reply: with them, the tool definitions would take about ${count(left.tokens)} tokens, ${room}. ` +
    `Switch a server off for this conversation, or use a model with a larger window (Settings, context windows).`
  );
}
