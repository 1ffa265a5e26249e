// What a user would pick instead of Strata, run on the same scripted conversation and
// against the same outside model (its token count, its summaries):
//   sliding window — the newest messages that fit, everything older dropped;
//   rolling summary — at the threshold, one summary of everything but the last turn,
//     regenerated from the previous summary each time (what Claude Code and Codex do);
//   send everything — the whole history while it fits; after that every request is
//     rejected by the server.
import type { ChatMessage } from "../../lib/compression/types";
import { TOOL_DEFINITIONS } from "../../lib/chat/tool-set";
import * as outside from "../../tests/support/outside-model/behaviour";
import { seededRandom } from "../../lib/random";
import { PrefixCache, requestText, type ScriptedTurn } from "../../tests/support/simulation";

export type EconomyResult = {
  name: string;
  /** Requests the server accepted, and the prompt tokens they cost (server count). */
  requests: number;
  promptTokens: number;
  rejected: number;
  summaryCalls: number;
  /** Prompt plus completion of the summary calls (server count). */
  summaryCostTokens: number;
  factsVisible: number;
  factsPlanted: number;
  /** Prompt tokens a provider's prefix cache could serve (the outside model's rule: a shared prefix of 1,024+ tokens, in 128-token steps). */
  cachedTokens: number;
  /** The summary calls' prompt tokens, and how many of them the same cache could serve. */
  summaryPromptTokens: number;
  summaryCachedTokens: number;
  /** Summaries of summaries: the highest level, and how often each planted fact was summarized (median, max); absent without summaries. */
  highestLevel?: number;
  passes?: { median: number; max: number };
};

const TOOLS = TOOL_DEFINITIONS as unknown as outside.ToolShape[];
const SYSTEM: ChatMessage = { role: "system", content: "You are a helpful assistant for a software team." };

const serverTokens = (messages: ChatMessage[]) => outside.promptTokens({ messages: messages as unknown as outside.Message[], tools: TOOLS });

/** Counts an accepted request: its prompt tokens, and what it shares with the requests before it (the outside model's cache rule). */
function counter(result: EconomyResult, cache = new PrefixCache()): (request: ChatMessage[]) => number {
  return (request) => {
    const body = { messages: request as unknown as outside.Message[], tools: TOOLS };
    const tokens = outside.promptTokens(body);
    result.requests++;
    result.promptTokens += tokens;
    result.cachedTokens += cache.see("chat", body);
    return tokens;
  };
}

/** The conversation's messages, turn by turn (tool rounds included), as the model would see them in full. */
function turnMessages(turn: ScriptedTurn, index: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "user", content: turn.user }];
  if (turn.toolOutput) {
    const id = `call_${index}`;
    messages.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "current_time", arguments: "{}" } }] });
    messages.push({ role: "tool", content: turn.toolOutput, tool_call_id: id });
  }
  messages.push({ role: "assistant", content: turn.reply });
  return messages;
}

function factsIn(text: string, script: ScriptedTurn[]): number {
  return script.filter((turn) => turn.probe && text.includes(turn.probe)).length;
}

function empty(name: string, script: ScriptedTurn[]): EconomyResult {
  return { name, requests: 0, promptTokens: 0, rejected: 0, summaryCalls: 0, summaryCostTokens: 0, factsVisible: 0, factsPlanted: script.filter((t) => t.probe).length, cachedTokens: 0, summaryPromptTokens: 0, summaryCachedTokens: 0 };
}

/** The newest whole messages that fit under `limit` (a tool call is never sent without its result). */
export function slidingWindow(script: ScriptedTurn[], limit: number): EconomyResult {
  const result = empty("sliding window (newest messages that fit)", script);
  const sent = counter(result);
  const history: ChatMessage[] = [];
  let last = "";
  for (const [index, turn] of script.entries()) {
    const messages = turnMessages(turn, index);
    history.push(messages[0]!);
    const send = (pending: ChatMessage[]) => {
      let start = 0;
      while (start < pending.length && serverTokens([SYSTEM, ...pending.slice(start)]) > limit) start++;
      while (start < pending.length && pending[start]!.role === "tool") start++;
      const request = [SYSTEM, ...pending.slice(start)];
      sent(request);
      last = requestText(request);
    };
    if (turn.toolOutput) {
      send(history);
      history.push(messages[1]!, messages[2]!);
    }
    send(history);
    history.push(messages.at(-1)!);
  }
  result.factsVisible = factsIn(last, script);
  return result;
}

/** Everything, while it fits the window; the server refuses the rest. */
export function sendEverything(script: ScriptedTurn[], window: number): EconomyResult {
  const result = empty("send everything (while it fits)", script);
  const sent = counter(result);
  const history: ChatMessage[] = [];
  let last = "";
  for (const [index, turn] of script.entries()) {
    const messages = turnMessages(turn, index);
    for (const message of messages.slice(0, -1)) history.push(message);
    const request = [SYSTEM, ...history];
    const tokens = serverTokens(request);
    if (tokens > window) {
      result.rejected++;
      last = "";
    } else {
      sent(request);
      last = requestText(request);
    }
    history.push(messages.at(-1)!);
  }
  result.factsVisible = factsIn(last, script);
  return result;
}

/**
 * One rolling summary: when the request passes `threshold`, everything but the current
 * turn is summarized together with the previous summary, in one call of at most
 * `summaryTokens`; the model then sees the summary and the current turn.
 */
export function rollingSummary(
  script: ScriptedTurn[],
  options: { window: number; threshold: number; summaryTokens: number; mode: outside.SummaryMode; seed: number },
): EconomyResult {
  const result = empty("rolling summary at the threshold", script);
  const cache = new PrefixCache();
  const sent = counter(result, cache);
  const rng = seededRandom(options.seed);
  // Every summary rewrites the one before it: a planted fact goes through every later call.
  const plantedAt: number[] = [];
  const callsAt: number[] = [];
  let turnIndex = 0;
  let summary = "";
  let history: ChatMessage[] = [];
  let last = "";
  const withSummary = (messages: ChatMessage[]): ChatMessage[] =>
    summary ? [SYSTEM, { role: "system", content: `Summary of the conversation so far:\n${summary}` }, ...messages] : [SYSTEM, ...messages];
  const send = () => {
    let request = withSummary(history);
    if (serverTokens(request) > options.threshold * options.window) {
      const current = history.slice(history.findLastIndex((m) => m.role === "user"));
      const older = history.slice(0, history.length - current.length);
      if (older.length > 0) {
        const prompt: ChatMessage[] = [
          { role: "system", content: "Summarize the conversation so far for the assistant to continue: goals, decisions, work done, open items, and every name and number." },
          { role: "user", content: [summary ? `Previous summary:\n${summary}` : "", ...older.map((m) => `${m.role}: ${m.content ?? ""}`)].filter(Boolean).join("\n") },
        ];
        const reply = outside.summarize(outside.materialOf(prompt as unknown as outside.Message[]), options.mode, options.summaryTokens, false, rng);
        result.summaryCalls++;
        callsAt.push(turnIndex);
        const body = { messages: prompt as unknown as outside.Message[] };
        result.summaryCostTokens += outside.promptTokens(body) + outside.countText(reply.text);
        result.summaryPromptTokens += outside.promptTokens(body);
        result.summaryCachedTokens += cache.see("summary", body);
        summary = reply.text.replace(/^Summary:\s*/, "");
        history = current;
        request = withSummary(history);
      }
    }
    const tokens = serverTokens(request);
    if (tokens > options.window) {
      result.rejected++;
      return;
    }
    sent(request);
    last = requestText(request);
  };
  for (const [index, turn] of script.entries()) {
    turnIndex = index;
    if (turn.probe) plantedAt.push(index);
    const messages = turnMessages(turn, index);
    history.push(messages[0]!);
    if (turn.toolOutput) {
      send();
      history.push(messages[1]!, messages[2]!);
    }
    send();
    history.push(messages.at(-1)!);
  }
  result.factsVisible = factsIn(last, script);
  result.highestLevel = result.summaryCalls;
  result.passes = medianMax(plantedAt.map((planted) => callsAt.filter((call) => call > planted).length));
  return result;
}

/** The median and the largest of `values` (0 for none). */
export function medianMax(values: number[]): { median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : 0, max: sorted.at(-1) ?? 0 };
}
