// What the next turn will offer, for a context measured outside a turn.
import { modelRefusesTools, type ChatTool } from "../../llm/client";
import { REPLY_PRIMING_TOKENS } from "../../llm/tokens";
import { offeredOutsideTurn } from "../tool-set";
import { knownMcpSource } from "./mcp";
import { overheadOf } from "./overhead";
import type { ToolSourceContext } from "./types";
import { fitToWindow } from "./window-share";

/**
 * What the next turn will offer, as far as it is known without connecting to a tool
 * server: the built-in and history tools (offeredOutsideTurn) and the tools of the
 * conversation's servers this process has listed, in a turn's order, held to the turn's
 * share of the window (fitToWindow). So the meter and background compaction count the
 * tool definitions the turn sends (with the demo's servers, about 1,800 tokens that a
 * page load counted as 168).
 */
export async function offeredNow(
  context: ToolSourceContext,
  compressed: boolean,
  model: string,
  contextWindow: number,
): Promise<{ definitions: readonly ChatTool[]; overheadTokens: number }> {
  // As a turn offers them: none to a model whose server refused tools.
  if (await modelRefusesTools(model)) return { definitions: [], overheadTokens: REPLY_PRIMING_TOKENS };
  const base = offeredOutsideTurn(context.settings, compressed, contextWindow);
  const servers = await knownMcpSource(context);
  const { tools } = fitToWindow([...base.definitions.map((definition) => ({ definition })), ...servers], model, contextWindow);
  if (tools.length === base.definitions.length) return base;
  const definitions = tools.map((tool) => tool.definition);
  return { definitions, overheadTokens: overheadOf(definitions) };
}
