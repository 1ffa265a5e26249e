// What a running turn tells the browser, in order: one schema for both sides of the
// wire. The server builds these events; the browser (components/stores/stream-turn.ts)
// checks each one it receives against the schema before acting on it. Zod and types
// only, so that client code may import it.
import { z } from "zod";
import type { AttemptView, CompactionView, ContextMeterView, MessageView } from "../views";

// The views are built by the server's own mappers (lib/db/mappers.ts) and typed there;
// on the wire an event only has to carry an object where a view belongs.
const view = <View>(name: string) =>
  z.custom<View>((value) => typeof value === "object" && value !== null && !Array.isArray(value), { message: `Expected ${name} object.` });

/**
 * Why a tool call did not run although the model asked for it: the user denied it,
 * nobody answered within the wait, the user stopped the turn while it waited (or before
 * it started), or another call with the same id already waited in the conversation.
 */
export const denialReasonSchema = z.enum(["user", "timeout", "stopped", "duplicate"]);

/** A tool call waiting for the user's approval, as the browser shows it. */
export const toolApprovalPromptSchema = z.object({
  callId: z.string().min(1),
  toolName: z.string(),
  server: z.string().optional(),
  /** The arguments as the model wrote them (JSON text, possibly invalid). */
  arguments: z.string(),
  /** When the wait ends denied by itself. */
  expiresAt: z.iso.datetime(),
});

export type ToolApprovalPrompt = z.infer<typeof toolApprovalPromptSchema>;

export const turnEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), message: view<MessageView>("a message") }),
  /** The conversation was named after the message just stored (its first). */
  z.object({ type: z.literal("title"), title: z.string() }),
  z.discriminatedUnion("stage", [
    z.object({ type: z.literal("status"), stage: z.literal("compressing"), messageCount: z.number() }),
    /** Over the hard limit while a compaction of this conversation is being written: the turn waits for it. */
    z.object({ type: z.literal("status"), stage: z.literal("awaiting_compaction") }),
  ]),
  z.object({ type: z.literal("compaction"), compaction: view<CompactionView>("a compaction") }),
  z.object({ type: z.literal("compaction_failed"), attempt: view<AttemptView>("an attempt") }),
  z.object({ type: z.literal("assistant_start"), model: z.string() }),
  z.object({ type: z.literal("delta"), text: z.string() }),
  /** The model's thinking as it arrives (lib/llm/reasoning.ts): shown folded above the reply. */
  z.object({ type: z.literal("reasoning"), text: z.string() }),
  /**
   * The turn waits for the user to approve or deny this call of the reply just stored
   * (answered through answerToolApprovalAction or POST …/tool-approvals); denied by itself at `expiresAt`.
   */
  toolApprovalPromptSchema.extend({ type: z.literal("tool_approval") }),
  /** A call's wait ended: approved (it runs next) or denied (the user, the timeout, Stop). */
  z.discriminatedUnion("decision", [
    z.object({ type: z.literal("tool_approval_settled"), callId: z.string().min(1), decision: z.literal("approved") }),
    z.object({
      type: z.literal("tool_approval_settled"),
      callId: z.string().min(1),
      decision: z.literal("denied"),
      reason: denialReasonSchema,
    }),
  ]),
  z.object({ type: z.literal("error"), message: z.string(), retryable: z.boolean() }),
  /** Something the user should know that did not stop the turn (the server cut the request to a smaller window). */
  z.object({ type: z.literal("notice"), message: z.string() }),
  /**
   * The turn's end: the context as the next turn will send it, and the conversation's
   * change state (GET …/changes) as the turn left it, so the tab that ran it does not
   * reload its own change as another tab's.
   */
  z.object({ type: z.literal("done"), context: view<ContextMeterView>("a context meter"), version: z.string() }),
]);

/** Serializable (NDJSON / RSC). */
export type TurnEvent = z.infer<typeof turnEventSchema>;
