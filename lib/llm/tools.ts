// Built-in chat tools: harmless, side-effect free, safe to offer any model.
// Each tool is its OpenAI function definition plus a `run` that returns the string
// sent back as the tool message. compress_context is not here: the compression
// engine defines it and the chat layer adds it to the request.

import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import type { ToolCall } from "../compression/types";

export type ToolContext = { now?: Date };

export type BuiltinTool = {
  definition: ChatCompletionFunctionTool;
  run(args: unknown, context?: ToolContext): string | Promise<string>;
};

export const currentTimeTool: BuiltinTool = {
  definition: {
    type: "function",
    function: {
      name: "current_time",
      description: "Get the current date and time of the server, as ISO 8601 (UTC) and in the server's time zone.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
    },
  },
  run(_args, context) {
    const now = context?.now ?? new Date();
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    const local = new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeStyle: "long", timeZone }).format(now);
    return JSON.stringify({ iso: now.toISOString(), timeZone, local });
  },
};

export const BUILTIN_TOOLS: Readonly<Record<string, BuiltinTool>> = {
  [currentTimeTool.definition.function.name]: currentTimeTool,
};

/** The built-ins as a list (what the chat layer offers the model). */
export const builtinTools: readonly BuiltinTool[] = Object.values(BUILTIN_TOOLS);

export function getTool(name: string): BuiltinTool | undefined {
  return Object.hasOwn(BUILTIN_TOOLS, name) ? BUILTIN_TOOLS[name] : undefined;
}

export type ToolResult = { ok: boolean; content: string };

/**
 * Runs a model's tool call. Never throws: unknown tools, bad JSON and tool errors
 * become an error text the model can read and recover from.
 */
export async function runTool(call: ToolCall, context?: ToolContext): Promise<ToolResult> {
  const tool = getTool(call.name);
  if (!tool) return { ok: false, content: `Error: unknown tool "${call.name}".` };
  let args: unknown;
  try {
    args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
  } catch {
    return { ok: false, content: `Error: the arguments of ${call.name} are not valid JSON.` };
  }
  try {
    return { ok: true, content: await tool.run(args, context) };
  } catch (error) {
    return { ok: false, content: `Error: ${call.name} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
