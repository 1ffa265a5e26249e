// A server's tool list as it arrives, checked tool by tool: one tool with a broken
// definition is skipped (with the reason) instead of losing the server's other tools,
// which the SDK's own listTools would do, as it validates the list as a whole.
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { issueMessage } from "../issue-messages";

export type McpToolInfo = {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server says the tool changes nothing (annotations.readOnlyHint). */
  readOnly: boolean;
};

export type SkippedTool = { name: string; reason: string };

/** The largest input schema offered to a model (a schema is sent with every request). */
const MAX_SCHEMA_CHARS = 50_000;

export const toolsPageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

export function checkTools(listed: readonly unknown[]): { tools: McpToolInfo[]; skipped: SkippedTool[] } {
  const tools: McpToolInfo[] = [];
  const skipped: SkippedTool[] = [];
  for (const entry of listed) {
    const name = typeof (entry as { name?: unknown })?.name === "string" ? (entry as { name: string }).name : "(unnamed)";
    const parsed = ToolSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      skipped.push({ name, reason: `invalid definition${issue ? ` at ${issue.path.join(".") || "top"}: ${issueMessage(issue)}` : ""}` });
      continue;
    }
    const tool = parsed.data;
    const schema = tool.inputSchema as Record<string, unknown>;
    if (JSON.stringify(schema).length > MAX_SCHEMA_CHARS) {
      skipped.push({ name, reason: `input schema larger than ${MAX_SCHEMA_CHARS} characters` });
      continue;
    }
    if (schema.properties !== undefined && (typeof schema.properties !== "object" || schema.properties === null || Array.isArray(schema.properties))) {
      skipped.push({ name, reason: "input schema: properties is not an object" });
      continue;
    }
    tools.push({
      name: tool.name,
      description: tool.description ?? tool.title ?? "",
      inputSchema: schema,
      readOnly: tool.annotations?.readOnlyHint === true,
    });
  }
  return { tools, skipped };
}
