// The built-in tools (lib/llm/tools.ts) as a source: harmless, offered on every turn.
import { builtinTools, runTool } from "../../llm/tools";
import type { ToolSource, TurnTool } from "./types";

const BUILTIN_TURN_TOOLS: readonly TurnTool[] = builtinTools.map((tool) => ({
  definition: tool.definition,
  async run(call) {
    const result = await runTool(call);
    return { outcome: result.ok ? "done" : "failed", content: result.content };
  },
}));

export const builtinSource: ToolSource = () => BUILTIN_TURN_TOOLS;
