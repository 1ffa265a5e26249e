// The shapes shared by every source of tools a turn can offer (built-ins, the engine's
// compress_context, and the sources added beside them): a source contributes TurnTools
// for one turn; the loop offers their definitions, counts them in the request and runs
// a call by the tool's name.
import type { CompressionSettings } from "../../compression/settings";
import type { ToolCall } from "../../compression/types";
import type { ChatTool } from "../../llm/client";
import type { ConversationHead } from "../../db/context-cache";
import type { HistoryState } from "../../db/history";
import type { McpServerRecord } from "../../db/mcp-servers";
import type { ToolContent } from "../../mcp/content";
import type { ToolOutcome } from "../../views";

/** What a tool's run may use: the conversation it runs for, its settings snapshot, the turn's stop signal. */
export type ToolCallContext = {
  userId: string;
  conversationId: string;
  settings: CompressionSettings;
  signal: AbortSignal;
};

/**
 * A tool's answer: the text the model reads next, and whether the call did its job;
 * `parts`, a tool server's content blocks when there is more than text (for the card).
 */
export type ToolRun = { outcome: Exclude<ToolOutcome, "denied">; content: string; parts?: ToolContent };

export type TurnTool = {
  definition: ChatTool;
  /** The tool server that runs it; absent for a tool Strata runs itself. */
  server?: string;
  /** The turn asks the user before running a call of it (a tool that may change something). */
  requiresApproval?: boolean;
  /** Never throws for a failure the model could read and recover from: that is an outcome "failed". */
  run(call: ToolCall, context: ToolCallContext): Promise<ToolRun>;
};

/**
 * What a source may look at to decide what to offer for one turn; what the turn's
 * statement storing the user's message read: `known`, the conversation row as it left
 * it, and `servers`, the tool servers in use.
 */
export type ToolSourceContext = {
  userId: string;
  conversationId: string;
  settings: CompressionSettings;
  known?: ConversationHead | null;
  /** The history tools' state, when the turn has already read it (a retry or an edit, which has no `known`). */
  history?: HistoryState | null;
  servers?: readonly McpServerRecord[] | null;
};

export type ToolSource = (context: ToolSourceContext) => readonly TurnTool[] | Promise<readonly TurnTool[]>;

/** A result as it is stored: the run's outcome, or "denied" when the user refused the call. */
export type ToolResult = { outcome: ToolOutcome; content: string; durationMs: number; server?: string; parts?: ToolContent };
