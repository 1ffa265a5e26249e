import { cutOutsideFacts, extractFacts } from "./facts";
import type { TranscriptMessage } from "./types";

// The transcript as the summary model reads it: role-labelled lines, tool calls by name with
// arguments, tool results labelled and shortened. Limits are generous because the
// summary model, not this formatter, decides what matters.
const MESSAGE_CHARS = 4000;
const TOOL_RESULT_CHARS = 1500;
const TOOL_ARGUMENT_CHARS = 300;

/** Shortens long content but re-attaches the FACT lines of the part that was cut. */
export function shorten(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const head = content.slice(0, cutOutsideFacts(content, maxChars));
  const kept = new Set(extractFacts(head));
  const lostFacts = extractFacts(content).filter((fact) => !kept.has(fact));
  return [`${head}… [${content.length - head.length} more characters]`, ...lostFacts].join("\n");
}

export function formatMessage(message: TranscriptMessage): string {
  const tag = `#${message.seq}`;
  switch (message.role) {
    case "user":
      return `[user ${tag}]: ${shorten(message.content, MESSAGE_CHARS)}`;
    case "system":
      return `[system note ${tag}]: ${shorten(message.content, MESSAGE_CHARS)}`;
    case "assistant": {
      const lines: string[] = [];
      if (message.content.trim()) lines.push(`[assistant ${tag}]: ${shorten(message.content, MESSAGE_CHARS)}`);
      for (const call of message.toolCalls ?? []) {
        lines.push(`[assistant ${tag}] tool_call ${call.name}(${shorten(call.arguments, TOOL_ARGUMENT_CHARS)})`);
      }
      return lines.length > 0 ? lines.join("\n") : `[assistant ${tag}]: (empty)`;
    }
    case "tool":
      return `[tool result ${tag}${message.toolName ? ` ${message.toolName}` : ""}]: ${shorten(message.content, TOOL_RESULT_CHARS)}`;
  }
}

export function formatTranscript(messages: TranscriptMessage[]): string {
  return messages.map(formatMessage).join("\n\n");
}
