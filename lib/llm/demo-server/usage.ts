// The demo model's usage report: its own rough estimate, as a real server has its own
// tokenizer. It deliberately does not use the app's counter (../tokens): the app must
// calibrate against whatever a server reports, and the demo should exercise that too.
import type { ChatMessage } from "../../compression/types";
import type { Reply } from "./behaviour";

export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/** About four characters a token, the usual rule of thumb for English text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const PER_MESSAGE = 4;
const REPLY_PRIMER = 3;

/** The prompt as the demo counts it: each message's text and tool calls plus a little framing, and the offered tools. */
export function estimatePromptTokens(messages: readonly ChatMessage[], tools: readonly unknown[] | undefined): number {
  let total = REPLY_PRIMER;
  for (const message of messages) {
    total += PER_MESSAGE + estimateTokens(message.content ?? "");
    if (message.role === "assistant" && message.tool_calls) total += estimateTokens(JSON.stringify(message.tool_calls));
  }
  return tools && tools.length > 0 ? total + estimateTokens(JSON.stringify(tools)) : total;
}

/** Usage of a reply: its text, or a tool call's name and arguments. */
export function usageOfReply(promptTokens: number, reply: Reply): Usage {
  const completion = reply.type === "text" ? estimateTokens(reply.content) : estimateTokens(reply.name) + estimateTokens(reply.arguments);
  return { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion };
}
