// A message as the app hands it to the database to store, and the row it becomes.
import type { Prisma } from "./generated/client.ts";
import type { CallUsage, ToolCall } from "../compression/types";
import type { ToolContent } from "../mcp/content";
import type { MessageStatus, ToolOutcome } from "../views";

// versionOf: the first version of the place this message is a new version of (lib/db/versions.ts).
type DraftBase = { content: string; tokenCount: number; versionOf?: string };

export type MessageDraft =
  | (DraftBase & { role: "user" })
  | (DraftBase & {
      role: "assistant";
      toolCalls?: ToolCall[];
      model: string;
      status: MessageStatus;
      error?: string;
      usage?: CallUsage;
      requestTokens?: number;
      /** The model's thinking before this reply (lib/llm/reasoning.ts). */
      reasoning?: string;
    })
  | (DraftBase & {
      role: "tool";
      toolCallId: string;
      toolName: string;
      outcome: ToolOutcome;
      durationMs?: number;
      /** The tool server that ran the call; absent for a built-in tool. */
      server?: string;
      /** The server's content blocks when there is more than text (lib/mcp/content.ts). */
      parts?: ToolContent;
    });

export function draftData(conversationId: string, seq: number, draft: MessageDraft): Prisma.MessageCreateManyInput {
  const base = { conversationId, seq, role: draft.role, content: draft.content, tokenCount: draft.tokenCount, versionOf: draft.versionOf ?? null };
  switch (draft.role) {
    case "user":
      return base;
    case "assistant":
      return {
        ...base,
        ...(draft.toolCalls?.length ? { toolCalls: draft.toolCalls as unknown as Prisma.InputJsonValue } : {}),
        model: draft.model,
        status: draft.status,
        error: draft.error ?? null,
        promptTokens: draft.usage?.promptTokens ?? null,
        completionTokens: draft.usage?.completionTokens ?? null,
        cachedTokens: draft.usage?.cachedTokens ?? null,
        requestTokens: draft.requestTokens ?? null,
        reasoning: draft.reasoning || null,
      };
    case "tool":
      return {
        ...base,
        toolCallId: draft.toolCallId,
        toolName: draft.toolName,
        toolOutcome: draft.outcome,
        toolDurationMs: draft.durationMs ?? null,
        toolServer: draft.server ?? null,
        ...(draft.parts ? { toolContent: draft.parts as unknown as Prisma.InputJsonValue } : {}),
      };
  }
}

export type UserDraft = Extract<MessageDraft, { role: "user" }>;
export type ReplyDraft = Extract<MessageDraft, { role: "assistant" }>;
/** Anything but a tool result: stored without the check a result needs against its call. */
export type PlainDraft = Exclude<MessageDraft, { role: "tool" }>;
