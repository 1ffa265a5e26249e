// A chat-completions request as the demo model reads it: lenient like a real server
// (unknown fields ignored, a malformed optional field treated as absent), strict only
// about what it cannot answer without (a non-empty list of messages).
import { z } from "zod";
import type { ChatMessage } from "../../compression/types";
import { hash32, type DemoRequest, type OfferedTool } from "./behaviour";

const offeredTool = z.object({ type: z.string().optional(), function: z.object({ name: z.string().optional() }).loose().optional() }).loose();

const bodySchema = z
  .object({
    messages: z.array(z.unknown()).min(1),
    model: z.string().optional().catch(undefined),
    tools: z.array(offeredTool).optional().catch(undefined),
    stream: z.boolean().optional().catch(undefined),
    stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullish().catch(undefined),
    response_format: z.object({ type: z.string() }).loose().nullish().catch(undefined),
  })
  .loose();

export type CompletionRequest = DemoRequest & {
  messages: ChatMessage[];
  tools: OfferedTool[] | undefined;
  json: boolean;
  model: string;
  stream: boolean;
  includeUsage: boolean;
};

/** The request, or null when it has no messages to answer. */
export function readCompletionRequest(body: unknown): CompletionRequest | null {
  const parsed = bodySchema.safeParse(body ?? {});
  if (!parsed.success) return null;
  const params = parsed.data;
  return {
    messages: params.messages.map(normalizeMessage),
    tools: params.tools,
    json: params.response_format?.type === "json_object",
    model: params.model ?? "strata-demo",
    stream: params.stream === true,
    includeUsage: params.stream_options?.include_usage === true,
  };
}

/** A stable tool-call id for a request: "call_" + a hash of its messages. */
export function toolCallId(messages: readonly ChatMessage[]): string {
  return `call_${hash32(JSON.stringify(messages)).toString(16).padStart(8, "0")}`;
}

/** OpenAI accepts content as a string or an array of parts; the demo model reads text only. */
export function normalizeMessage(raw: unknown): ChatMessage {
  const message = (raw ?? {}) as Record<string, unknown>;
  const content = message.content;
  let text: string | null;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = content
      .map((part) => (part && typeof part === "object" && typeof part.text === "string" ? part.text : ""))
      .join("");
  } else text = null;
  const role = typeof message.role === "string" ? message.role : "user";
  if (role === "assistant") {
    return {
      role,
      content: text,
      ...(Array.isArray(message.tool_calls) ? { tool_calls: message.tool_calls as never } : {}),
    };
  }
  if (role === "tool") return { role, content: text ?? "", tool_call_id: String(message.tool_call_id ?? "") };
  // "developer" and unknown roles keep their name (it is counted as tokens) but act like system/user text.
  return { role: role as "system" | "user", content: text ?? "" };
}

