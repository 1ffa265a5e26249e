// The tools of one turn: every source's contribution, the definitions the request
// offers, what they cost in the prompt, and the runner for a call.
import type { ToolCall } from "../../compression/types";
import { REPLY_PRIMING_TOKENS } from "../../llm/tokens";
import { builtinSource } from "./builtin";
import { compressContextSource } from "./compress-context";
import { historySource } from "./history";
import { mcpSource } from "./mcp";
import { overheadOf } from "./overhead";
import type { ToolCallContext, ToolResult, ToolSource, ToolSourceContext, TurnTool } from "./types";
import type { ChatTool } from "../../llm/client";
import { untilStopped } from "./stoppable";
import { fitToWindow, type ToolsLeftOut } from "./window-share";
import { getDb } from "../../db/client";
import { historyState } from "../../db/history";
import { modelCatalog } from "../../llm/models";
import { modelRefusesTools } from "../../llm/client";

/** In the order the request lists them; a tool's name is unique across sources (the first wins). */
const SOURCES: readonly ToolSource[] = [builtinSource, compressContextSource, historySource, mcpSource];

export type TurnToolSet = {
  tools: readonly TurnTool[];
  definitions: readonly ChatTool[];
  /** Tool definitions plus the request's own framing, in our count: what the request costs beyond its messages. */
  overheadTokens: number;
  /** What the conversation has switched on but the request does not offer, for lack of room in the window. */
  leftOut?: ToolsLeftOut | null;
  /** The model's server refused tools: none is offered, and automatic recall stands in for the history tools. */
  toolless?: boolean;
};

export function toolSetOf(tools: readonly TurnTool[]): TurnToolSet {
  const seen = new Set<string>();
  const unique = tools.filter((tool) => {
    const name = tool.definition.function.name;
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
  const definitions = unique.map((tool) => tool.definition);
  return { tools: unique, definitions, overheadTokens: overheadOf(definitions) };
}

/**
 * The tools offered for one turn (fixed for the whole turn, so its requests share their
 * prefix), within their share of the model's window (fitToWindow).
 */
export async function toolsForTurn(context: ToolSourceContext): Promise<TurnToolSet> {
  // The model first: for one that refuses tools no source runs (no tool server is asked
  // for its list). Without the turn's own row, the one read that names it also answers
  // the history tools' offer.
  const history = context.known ? undefined : await historyState(await getDb(), context.userId, context.conversationId);
  const model = context.known ? context.known.model : (history?.model ?? null);
  if (model !== null && (await modelRefusesTools(model))) return { ...NO_TOOLS, toolless: true };
  const contributions = await Promise.all(SOURCES.map((source) => source(history === undefined ? context : { ...context, history })));
  const set = toolSetOf(contributions.flat());
  if (model === null) return set;
  const fitted = fitToWindow(set.tools, model, modelCatalog.contextWindow(model, context.settings.contextWindowOverrides));
  return fitted.leftOut ? { ...toolSetOf(fitted.tools), leftOut: fitted.leftOut } : set;
}

/** What a request that offers no tools costs beyond its messages (Continue's). */
export const NO_TOOLS: TurnToolSet = { tools: [], definitions: [], overheadTokens: REPLY_PRIMING_TOKENS };

/**
 * Runs one call of the model's. Never throws for the model's or the tool's mistakes:
 * an unknown tool or a failing one is a result the model reads.
 */
export async function runToolCall(set: TurnToolSet, call: ToolCall, context: ToolCallContext): Promise<ToolResult> {
  const started = performance.now();
  const tool = set.tools.find((candidate) => candidate.definition.function.name === call.name);
  if (!tool) {
    return { outcome: "failed", content: `Error: unknown tool "${call.name}".`, durationMs: 0 };
  }
  // Stop ends the wait for a running call at once; the tool gets the signal to end its work.
  const run = await untilStopped(tool.run(call, context), context.signal);
  return { ...run, durationMs: Math.round(performance.now() - started), ...(tool.server ? { server: tool.server } : {}) };
}
