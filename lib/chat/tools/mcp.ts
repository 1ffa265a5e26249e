// Tool servers (Model Context Protocol) as a source: the tools of every server the
// conversation has switched on, offered under namespaced names; a call runs on the
// server with a time limit and the turn's stop signal, and whatever goes wrong (an
// error result, a protocol error, a crash, a hang, a server switched off since the
// turn began) is a failed result the model reads.
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { config } from "../../config";
import { getDb } from "../../db/client";
import { mcpServersInUse } from "../../db/mcp-servers";
import { logger } from "../../log/logger";
import { modelToolName } from "../../mcp/names";
import { isProtocolError, isServerDown, mcpPool, type ServerTarget } from "../../mcp/pool";
import { toolContentOf } from "../../mcp/content";
import { boundResult, resultText } from "../../mcp/results";
import type { McpToolInfo } from "../../mcp/tools";
import type { ToolCallContext, ToolRun, ToolSource, TurnTool } from "./types";

/** A protocol error's message can carry a whole validation report; the model gets its start. */
const MAX_ERROR_CHARS = 200;

const argumentsSchema = z.record(z.string(), z.unknown());

function failed(content: string): ToolRun {
  return { outcome: "failed", content: `Error: ${content}` };
}

/** Whether the conversation still uses the server (it may have been switched off mid-turn). */
async function stillOn(context: ToolCallContext, serverId: string): Promise<boolean> {
  const servers = await mcpServersInUse(await getDb(), context.userId, context.conversationId);
  return servers.some((server) => server.id === serverId);
}

function parseArguments(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return "the arguments are not valid JSON.";
  }
  const parsed = argumentsSchema.safeParse(value);
  return parsed.success ? parsed.data : "the arguments must be a JSON object.";
}

function callFailure(error: unknown, server: string, timeoutMs: number, signal: AbortSignal): string {
  if (signal.aborted) return "the call was stopped by the user.";
  if (isServerDown(error)) return `the tool server "${server}" is unavailable (${error.message}).`;
  if (isProtocolError(error)) {
    if (error.code === ErrorCode.RequestTimeout) return `the tool did not answer within ${Math.round(timeoutMs / 1000)} s.`;
    if (error.code === ErrorCode.ConnectionClosed) return `the tool server "${server}" closed the connection during the call.`;
    const message = error.message.replace(/MCP error -?\d+: /g, "");
    return `the tool server "${server}" answered with an error: ${message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS)} …` : message}`;
  }
  // The SDK's own check of the answer's shape (a ZodError) or a transport error.
  return `the tool server "${server}" sent an answer that could not be read (${error instanceof Error ? error.name : "unknown error"}).`;
}

function turnTool(target: ServerTarget, tool: McpToolInfo, name: string): TurnTool {
  return {
    definition: {
      type: "function",
      function: { name, description: tool.description.slice(0, 4_000), parameters: tool.inputSchema },
    },
    server: target.name,
    requiresApproval: !tool.readOnly,
    async run(call, context) {
      const args = parseArguments(call.arguments);
      if (typeof args === "string") return failed(args);
      if (!(await stillOn(context, target.id))) return failed(`the tool server "${target.name}" is switched off for this conversation.`);
      const timeoutMs = config().STRATA_TOOL_TIMEOUT_MS;
      try {
        const result = await mcpPool().connection(target).callTool(tool.name, args, { timeoutMs, signal: context.signal });
        const text = boundResult(resultText(result));
        const parts = toolContentOf(result);
        return { outcome: result.isError ? "failed" : "done", content: text, ...(parts ? { parts } : {}) };
      } catch (error) {
        const content = callFailure(error, target.name, timeoutMs, context.signal);
        logger.warn({ conversationId: context.conversationId, server: target.name, tool: tool.name, err: content }, "tool server call failed");
        return failed(content);
      }
    },
  };
}

/** The tools of the servers the conversation uses, as `list` gives each server's; named as every request names them. */
async function serverTools(
  { userId, conversationId, servers: read }: Parameters<ToolSource>[0],
  list: (target: ServerTarget) => Promise<McpToolInfo[]>,
): Promise<TurnTool[]> {
  const servers = (read ?? (await mcpServersInUse(await getDb(), userId, conversationId))).filter((server) => server.transport);
  if (servers.length === 0) return [];
  const listed = await Promise.all(
    servers.map(async (server) => {
      const target: ServerTarget = { id: server.id, name: server.name, transport: server.transport!, updatedAt: server.updatedAt };
      return { target, tools: await list(target) };
    }),
  );
  const taken = new Set<string>();
  return listed.flatMap(({ target, tools }) => tools.map((tool) => turnTool(target, tool, modelToolName(target.name, tool.name, taken))));
}

export const mcpSource: ToolSource = (context) =>
  serverTools(context, async (target) => {
    try {
      return (await mcpPool().connection(target).listTools()).tools;
    } catch (error) {
      // Down: its tools are not offered; the admin page shows why.
      if (!isServerDown(error)) throw error;
      logger.warn({ server: target.name, err: error.message }, "tool server unavailable; its tools are not offered");
      return [];
    }
  });

/**
 * The same, from what this process has already listed and without connecting to any
 * server: what a context measured outside a turn (the meter, background compaction)
 * counts. A page must not wait for a tool server to start.
 */
export const knownMcpSource: ToolSource = (context) =>
  serverTools(context, async (target) => {
    const status = mcpPool().status(target);
    return status.state === "up" ? status.tools : [];
  });
