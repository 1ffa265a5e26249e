// The history tools' definitions alone (no database behind them), so the figures that
// budget for them (lib/chat/tool-set.ts) do not pull the database layer into a page.
import type { ChatTool } from "../../llm/client";
import { SEARCH_HISTORY_TOOL_NAME } from "../../compression/recall";

export const SEARCH_HISTORY_TOOL = {
  type: "function",
  function: {
    name: SEARCH_HISTORY_TOOL_NAME,
    description:
      "Search the full history of this conversation, including the messages that are only summarized in your context. " +
      "Finds words or a \"quoted phrase\"; returns the best matching original messages first, each with its message number (#n) and an excerpt, then matching summaries.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words or a \"quoted phrase\" to find." },
        limit: { type: "integer", minimum: 1, maximum: 20, description: "Most results to return (default 8)." },
      },
      required: ["query"],
      additionalProperties: false,
    },
  },
} as const satisfies ChatTool;

export const OPEN_HISTORY_TOOL = {
  type: "function",
  function: {
    name: "open_history",
    description:
      "Read original messages of this conversation by number, word for word (tool calls and results included), e.g. what a summary of messages 12–40 replaced. " +
      "Long ranges come in pages; the result says how to get the next one.",
    parameters: {
      type: "object",
      properties: {
        from: { type: "integer", minimum: 1, description: "First message number." },
        to: { type: "integer", minimum: 1, description: "Last message number (default: from)." },
        part: { type: "integer", minimum: 1, description: "For one message too long for a page: which part of it (default 1)." },
      },
      required: ["from"],
      additionalProperties: false,
    },
  },
} as const satisfies ChatTool;

export const HISTORY_TOOL_DEFINITIONS: readonly ChatTool[] = [SEARCH_HISTORY_TOOL, OPEN_HISTORY_TOOL];
