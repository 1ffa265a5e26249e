// The user's approval of a tool call before it runs. A turn whose reply calls a tool
// that requires approval registers each such call here, tells the browser (an event),
// and waits; the user's answer arrives through another request (a server action or the
// API), which finds the waiting call by conversation and call id and settles it. The
// wait ends denied when it times out or the turn is stopped, so every call gets a
// result and the next request stays valid.
//
// The registry lives in this process's memory, like the running turns: an answer
// received by another instance is passed on to this one (lib/chat/approval-ops.ts).
import type { ToolCall } from "../../compression/types";
import type { z } from "zod";
import type { denialReasonSchema, ToolApprovalPrompt, TurnEvent } from "../events";
import type { AllowedTool } from "../../db/tool-allowances";
import { logger } from "../../log/logger";
import { runToolCall, type TurnToolSet } from "./index";
import type { ToolCallContext, ToolResult } from "./types";

export type DenialReason = z.infer<typeof denialReasonSchema>;

export type ApprovalDecision = { kind: "approved" } | { kind: "denied"; reason: DenialReason };

type Waiting = { userId: string; prompt: ToolApprovalPrompt | null; settle: (decision: ApprovalDecision) => void };

// One registry per process, kept across hot reloads in development.
const holder = globalThis as unknown as { strataApprovals?: Map<string, Waiting> };
const waiting = (holder.strataApprovals ??= new Map());

const keyOf = (conversationId: string, callId: string) => `${conversationId}\u0000${callId}`;

export type ApprovalWait = {
  userId: string;
  conversationId: string;
  callId: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** What the user is asked, for a page that comes back while the call waits (waitingPrompts). */
  prompt?: ToolApprovalPrompt;
};

/**
 * Registers one call as waiting (at once, before the caller tells anyone) and resolves
 * with the user's answer, or denied on timeout or stop. Never rejects.
 */
export function waitForApproval({ userId, conversationId, callId, timeoutMs, signal, prompt }: ApprovalWait): Promise<ApprovalDecision> {
  const key = keyOf(conversationId, callId);
  if (waiting.has(key)) return Promise.resolve({ kind: "denied", reason: "duplicate" });
  if (signal.aborted) return Promise.resolve({ kind: "denied", reason: "stopped" });
  return new Promise<ApprovalDecision>((resolve) => {
    const settle = (decision: ApprovalDecision) => {
      // Only the first answer counts; the entry is ours until then.
      if (waiting.get(key) !== entry) return;
      waiting.delete(key);
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(decision);
    };
    const entry: Waiting = { userId, prompt: prompt ?? null, settle };
    const onAbort = () => settle({ kind: "denied", reason: "stopped" });
    const timer = setTimeout(() => settle({ kind: "denied", reason: "timeout" }), timeoutMs);
    timer.unref?.();
    waiting.set(key, entry);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export type ApprovalAnswer = { userId: string; conversationId: string; callId: string; approved: boolean };

/**
 * Settles a waiting call with the user's answer. False when no call of that id waits in
 * that conversation for that user in this process (answered already, timed out, stopped,
 * never asked, someone else's): the caller says so rather than pretending it went through.
 */
export function answerApproval({ userId, conversationId, callId, approved }: ApprovalAnswer): boolean {
  const entry = waiting.get(keyOf(conversationId, callId));
  if (!entry || entry.userId !== userId) return false;
  entry.settle(approved ? { kind: "approved" } : { kind: "denied", reason: "user" });
  return true;
}

/** One call waiting for this user's answer here (with its prompt when it was asked with one), or null. */
export function waitingCall(userId: string, conversationId: string, callId: string): { prompt: ToolApprovalPrompt | null } | null {
  const entry = waiting.get(keyOf(conversationId, callId));
  return entry && entry.userId === userId ? { prompt: entry.prompt } : null;
}

const sameTool = (prompt: ToolApprovalPrompt, tool: AllowedTool) => prompt.toolName === tool.toolName && (prompt.server ?? "") === tool.server;

/** Approves every call of `tool` waiting in the conversation (the user just allowed it always); returns how many. */
export function approveWaitingCallsOf(userId: string, conversationId: string, tool: AllowedTool): number {
  let approved = 0;
  for (const prompt of waitingPrompts(userId, conversationId)) {
    if (sameTool(prompt, tool) && answerApproval({ userId, conversationId, callId: prompt.callId, approved: true })) approved++;
  }
  return approved;
}

/**
 * The prompts of the calls waiting in a conversation in this process, for a page that
 * was reloaded (or opened in another tab) while they wait: it missed their events.
 */
export function waitingPrompts(userId: string, conversationId: string): ToolApprovalPrompt[] {
  const prefix = keyOf(conversationId, "");
  const prompts: ToolApprovalPrompt[] = [];
  for (const [key, entry] of waiting) {
    if (key.startsWith(prefix) && entry.userId === userId && entry.prompt) prompts.push(entry.prompt);
  }
  return prompts;
}

/** How many calls wait for an answer in this process (health and tests). */
export function waitingApprovalCount(): number {
  return waiting.size;
}

export type ApprovalContext = {
  userId: string;
  conversationId: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** The tools the user lets run without asking in this conversation (read only when a call needs approval). */
  allowedTools?: () => Promise<readonly AllowedTool[]>;
};

/** A call's decision by call id; calls of tools that need no approval are absent. */
export type Approvals = ReadonlyMap<string, ApprovalDecision>;

function requiresApproval(set: TurnToolSet, call: ToolCall): { server?: string } | null {
  const tool = set.tools.find((candidate) => candidate.definition.function.name === call.name);
  // An unknown tool needs no approval: it cannot run, and its call fails with an error the model reads.
  if (!tool?.requiresApproval) return null;
  return tool.server ? { server: tool.server } : {};
}

/**
 * Asks the user about every call of `calls` whose tool requires approval, all at once
 * (the user answers them in any order), and waits until each is decided. Yields a
 * `tool_approval` event per call, sent only once the call is registered so that an
 * answer can never arrive before it is expected, and a `tool_approval_settled` event as
 * each is decided. Returns the decisions.
 */
export async function* askApprovals(set: TurnToolSet, calls: readonly ToolCall[], context: ApprovalContext): AsyncGenerator<TurnEvent, Approvals> {
  const decisions = new Map<string, ApprovalDecision>();
  const needing = calls.flatMap((call) => {
    const needs = requiresApproval(set, call);
    return needs ? [{ call, ...needs }] : [];
  });
  if (needing.length === 0) return decisions;
  const allowed = context.allowedTools ? await context.allowedTools() : [];
  const isAllowed = ({ call, server }: (typeof needing)[number]) => allowed.some((tool) => tool.toolName === call.name && tool.server === (server ?? ""));
  for (const one of needing.filter(isAllowed)) decisions.set(one.call.id, { kind: "approved" });
  const asked = needing.filter((one) => !isAllowed(one));
  if (asked.length === 0) return decisions;
  // Ends the waits of a consumer that stops reading half-way, so nothing stays registered.
  const abandon = new AbortController();
  const signal = AbortSignal.any([context.signal, abandon.signal]);
  try {
    const expiresAt = new Date(Date.now() + context.timeoutMs).toISOString();
    const prompts = asked.map(({ call, server }): ToolApprovalPrompt => ({ callId: call.id, toolName: call.name, ...(server ? { server } : {}), arguments: call.arguments, expiresAt }));
    const pending = new Map<string, Promise<{ callId: string; decision: ApprovalDecision }>>();
    for (const prompt of prompts) {
      const { callId } = prompt;
      const wait = waitForApproval({ userId: context.userId, conversationId: context.conversationId, callId, timeoutMs: context.timeoutMs, signal, prompt });
      pending.set(callId, wait.then((decision) => ({ callId, decision })));
    }
    for (const prompt of prompts) yield { type: "tool_approval", ...prompt };
    while (pending.size > 0) {
      const { callId, decision } = await Promise.race(pending.values());
      pending.delete(callId);
      decisions.set(callId, decision);
      // Who let which tool run (or not): the arguments stay out of the log, they may carry what the user typed.
      const tool = prompts.find((prompt) => prompt.callId === callId)?.toolName;
      logger.info({ conversationId: context.conversationId, callId, tool, decision: decision.kind, ...(decision.kind === "denied" ? { reason: decision.reason } : {}) }, "tool call approval");
      yield decision.kind === "approved"
        ? { type: "tool_approval_settled", callId, decision: "approved" }
        : { type: "tool_approval_settled", callId, decision: "denied", reason: decision.reason };
    }
    return decisions;
  } finally {
    abandon.abort();
  }
}

/** The text the model reads in place of a result of a call that did not run. */
export function denialText(reason: DenialReason, timeoutMs: number): string {
  switch (reason) {
    case "user":
      return "The user declined to run this tool.";
    case "timeout":
      return `The user did not answer the request to run this tool within ${Math.round(timeoutMs / 1000)} seconds, so it was not run.`;
    case "stopped":
      return "The user stopped the turn before this tool ran.";
    case "duplicate":
      return "This call was not run: another call with the same id was already waiting for the user's approval.";
  }
}

/**
 * Runs one call as its decision says: a call the user denied, that timed out, or that
 * the stop button reached before it started is stored as denied without running; any
 * other runs through the runner.
 */
export async function runDecidedCall(
  set: TurnToolSet,
  call: ToolCall,
  context: ToolCallContext,
  approvals: Approvals,
  timeoutMs: number,
): Promise<ToolResult> {
  const decision = approvals.get(call.id);
  const denied = decision?.kind === "denied" ? decision.reason : context.signal.aborted ? "stopped" : null;
  if (denied === null) return runToolCall(set, call, context);
  const server = set.tools.find((candidate) => candidate.definition.function.name === call.name)?.server;
  return { outcome: "denied", content: denialText(denied, timeoutMs), durationMs: 0, ...(server ? { server } : {}) };
}
