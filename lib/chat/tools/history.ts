// search_history and open_history: the model's way back to the words compression
// replaced. Offered once part of the conversation is compressed and the recall setting
// allows tools; each result is bounded by the recall budget of the conversation's
// window, so a result never crowds out the context it is read in.
import { z } from "zod";
import { contextBudget } from "../../compression/budget";
import { recallByTools } from "../../compression/settings";
import { getDb } from "../../db/client";
import { historyState, readHistoryRange, type HistoryMessage } from "../../db/history";
import { searchHistory } from "../../db/search";
import { AppError } from "../../errors";
import { issueMessage } from "../../issue-messages";
import { modelCatalog } from "../../llm/models";
import { tokenCounter } from "../../llm/tokens";
import type { SearchHit } from "../../views";
import { OPEN_HISTORY_TOOL, SEARCH_HISTORY_TOOL } from "./history-definitions";
import type { ToolRun, ToolSource, TurnTool } from "./types";

const DEFAULT_SEARCH_LIMIT = 8;
/** Rows read for one page at most: a page holds far fewer messages than this in any real window. */
const MAX_PAGE_ROWS = 200;

const searchArguments = z.object({
  query: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(20).optional(),
});

const openArguments = z
  .object({ from: z.number().int().min(1), to: z.number().int().min(1).optional(), part: z.number().int().min(1).optional() })
  .refine((args) => args.to === undefined || args.to >= args.from, { message: "to must not be below from" });

function parsed<T>(schema: z.ZodType<T>, json: string, shape: string): { ok: true; value: T } | { ok: false; run: ToolRun } {
  let raw: unknown;
  try {
    raw = JSON.parse(json || "{}");
  } catch {
    return { ok: false, run: { outcome: "failed", content: `Error: the arguments must be JSON of the form ${shape}.` } };
  }
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return { ok: false, run: { outcome: "failed", content: `Error: ${issue ? `${issue.path.join(".") || "arguments"}: ${issueMessage(issue)}` : "invalid arguments"} Expected ${shape}.` } };
}

const count = (text: string) => tokenCounter.count(text);
const plain = (hit: SearchHit) => hit.snippet.map((part) => part.text).join("").replace(/\s+/g, " ").trim();

function hitLine(hit: SearchHit): string {
  if (hit.kind === "message") return `#${hit.seq} (${hit.role}${hit.compressed ? "" : ", in your context"}): ${plain(hit)}`;
  return `summary of #${hit.fromSeq}–#${hit.toSeq} (level ${hit.level}): ${plain(hit)}`;
}

/** Originals first (they are the words themselves), each kind in rank order, within `bound` tokens. */
export function searchResultText(query: string, hits: readonly SearchHit[], bound: number): string {
  if (hits.length === 0) return `No message or summary of this conversation matches "${query}".`;
  const ordered = [...hits.filter((hit) => hit.kind === "message"), ...hits.filter((hit) => hit.kind === "summary")];
  const lines = [`Matches for "${query}" (open_history {"from": n} reads message #n whole):`];
  let tokens = count(lines[0]!);
  let shown = 0;
  for (const hit of ordered) {
    const line = hitLine(hit);
    const cost = count(line) + 1;
    if (tokens + cost > bound) break;
    lines.push(line);
    tokens += cost;
    shown++;
  }
  if (shown < ordered.length) lines.push(`(${ordered.length - shown} more not shown: use more specific words.)`);
  return lines.join("\n");
}

function renderMessage(message: HistoryMessage): string {
  const calls = Array.isArray(message.toolCalls)
    ? (message.toolCalls as { name?: string; arguments?: string }[]).map((call) => ` → ${call.name ?? "tool"} ${call.arguments ?? ""}`.trimEnd()).join("")
    : "";
  const who = message.role === "tool" ? `tool result${message.toolName ? ` of ${message.toolName}` : ""}` : message.role;
  return `[#${message.seq} ${who}${calls}]: ${message.content}`;
}

/**
 * One page of the range: whole messages while they fit `bound`, or, when the first one
 * alone does not, the requested part of it. Ends with how to ask for the rest.
 */
export function openResultText(messages: readonly HistoryMessage[], args: { from: number; to: number; part?: number | undefined }, bound: number, lastSeq: number): string {
  const range = args.from === args.to ? `#${args.from}` : `#${args.from}–#${args.to}`;
  if (messages.length === 0) return `No message numbered ${range} (this conversation has messages #1–#${lastSeq}).`;
  const first = messages[0]!;
  const firstText = renderMessage(first);
  const firstTokens = count(firstText);
  if (firstTokens > bound || (args.part ?? 1) > 1) {
    const parts = Math.max(1, Math.ceil(firstTokens / bound));
    const part = Math.min(args.part ?? 1, parts);
    const size = Math.ceil(firstText.length / parts);
    const piece = firstText.slice((part - 1) * size, part * size);
    const next =
      part < parts
        ? `open_history {"from": ${first.seq}, "to": ${args.to}, "part": ${part + 1}}`
        : first.seq < args.to
          ? `open_history {"from": ${first.seq + 1}, "to": ${args.to}}`
          : null;
    return [`Message #${first.seq}, part ${part} of ${parts}:`, piece, next ? `(More: ${next})` : "(End of the range.)"].join("\n");
  }
  const lines: string[] = [];
  let tokens = 0;
  let nextSeq: number | null = null;
  for (const message of messages) {
    const text = renderMessage(message);
    const cost = count(text) + 1;
    if (lines.length > 0 && tokens + cost > bound) {
      nextSeq = message.seq;
      break;
    }
    lines.push(text);
    tokens += cost;
  }
  const lastShown = messages[lines.length - 1]!.seq;
  if (nextSeq === null && messages.length === MAX_PAGE_ROWS && lastShown < args.to) nextSeq = lastShown + 1;
  lines.push(nextSeq === null ? "(End of the range.)" : `(More: open_history {"from": ${nextSeq}, "to": ${args.to}})`);
  return lines.join("\n");
}

function historyTools(bound: number, lastSeq: number): TurnTool[] {
  const search: TurnTool = {
    definition: SEARCH_HISTORY_TOOL,
    async run(call, { userId, conversationId }) {
      const args = parsed(searchArguments, call.arguments, '{"query": "<words>", "limit": <1-20>}');
      if (!args.ok) return args.run;
      const { query, limit = DEFAULT_SEARCH_LIMIT } = args.value;
      try {
        const hits = await searchHistory(await getDb(), userId, query, { conversationId, limit });
        return { outcome: "done", content: searchResultText(query, hits, bound) };
      } catch (error) {
        if (error instanceof AppError && error.code === "invalid_input") return { outcome: "failed", content: `Error: ${error.message}` };
        throw error;
      }
    },
  };
  const open: TurnTool = {
    definition: OPEN_HISTORY_TOOL,
    async run(call, { userId, conversationId }) {
      const args = parsed(openArguments, call.arguments, '{"from": <n>, "to": <m>}');
      if (!args.ok) return args.run;
      const to = args.value.to ?? args.value.from;
      const messages = await readHistoryRange(await getDb(), userId, conversationId, args.value.from, to, MAX_PAGE_ROWS);
      return { outcome: "done", content: openResultText(messages, { ...args.value, to }, bound, lastSeq) };
    },
  };
  return [search, open];
}

/**
 * Offered only while something is compressed (before that the whole conversation is in
 * view, and the definitions would cost every request for nothing), at the windows the
 * setting allows them.
 */
export const historySource: ToolSource = async ({ userId, conversationId, settings, known, history }) => {
  // Not at any window: no need to read the conversation's state.
  if (!recallByTools(settings, Number.POSITIVE_INFINITY)) return [];
  const state = history !== undefined ? history : await historyState(await getDb(), userId, conversationId, known);
  if (!state?.compacted) return [];
  const contextWindow = modelCatalog.contextWindow(state.model, settings.contextWindowOverrides);
  if (!recallByTools(settings, contextWindow)) return [];
  const bound = contextBudget(contextWindow, settings).recallTokens;
  return historyTools(bound, state.lastSeq);
};
