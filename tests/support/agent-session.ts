// An agent-style session run through the real engine, in memory, against the outside
// model (tests/support/outside-model): the user asks for a task every few rounds, the
// model answers each with tool calls whose outputs are long (1–20k tokens by the
// outside count), and facts are planted inside the outputs. What the model could answer
// at the end is asked the outside model's way: `<<recall WORD>>` on the last request,
// in its `search` chat mode, so a fact that left the request (cleared, cut or
// summarized away) is looked up with search_history as the app offers it once anything
// is compressed (history.ts below stands in for the PostgreSQL search).
// Used by tests/unit/engine/clearing.test.ts and bench/agent-session.ts.
import { AutoCompressionManager } from "@/lib/compression/manager";
import { DEFAULT_SETTINGS, type CompressionSettings } from "@/lib/compression/settings";
import type { ChatMessage, CompressionChange, CompressionLogger, ToolCall, Transcript } from "@/lib/compression/types";
import { TOOL_DEFINITIONS } from "@/lib/chat/tool-set";
import { countMessageTokens, countRequestTokens, createTokenCounter } from "@/lib/llm/tokens";
import * as outside from "./outside-model/behaviour";
import { chatter, factSentence, MemoryStore, OutsideSummarizer, PrefixCache } from "./simulation";
import { memorySearchHistory } from "./memory-history";

export type AgentScenario = {
  window: number;
  rounds: number;
  /** A user message opens every this many rounds. */
  roundsPerTask?: number;
  /** Smallest and largest tool output, outside tokens. */
  outputTokens?: { min: number; max: number };
  /** Plant a fact in every this many outputs. */
  factEvery?: number;
  /** Share of planted facts the agent restates in its next message (as agents note what they found). */
  restateShare?: number;
  settings?: Partial<CompressionSettings>;
  summaryMode?: outside.SummaryMode;
  seed?: number;
};

export type AgentRound = { task?: string; note: string; output: string; probe?: string };

export type AgentResult = {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  summaryCalls: number;
  summaryCostTokens: number;
  /** The summary calls' prompt tokens, the part of them a provider's prefix cache could serve, and what they wrote. */
  summaryPromptTokens: number;
  summaryCachedTokens: number;
  summaryCompletionTokens: number;
  clearings: number;
  summaries: number;
  truncations: number;
  overWindow: number;
  factsPlanted: number;
  factsAnswered: number;
  /** Facts answered only through a search_history call. */
  factsLookedUp: number;
  /** Every stored change, for checks: the records made and the transcript before each. */
  changes: { before: Transcript; change: CompressionChange }[];
  /** Our measure of each request next to the outside model's count of it. */
  measured: { ours: number; outside: number }[];
  store: MemoryStore;
};

const TOOLS_ON_WIRE = TOOL_DEFINITIONS as unknown as outside.ToolShape[];
const QUIET: CompressionLogger = { info() {}, warn() {}, error() {} };

/** The session's script: the same for every configuration compared. */
export function agentScript(scenario: AgentScenario): AgentRound[] {
  const rng = outside.mulberry32((scenario.seed ?? 1) * 7919 + 17);
  const { min, max } = scenario.outputTokens ?? { min: 1000, max: 20_000 };
  const perTask = scenario.roundsPerTask ?? 4;
  const factEvery = scenario.factEvery ?? 4;
  const rounds: AgentRound[] = [];
  let facts = 0;
  for (let index = 0; index < scenario.rounds; index++) {
    const size = min + Math.floor(rng() * (max - min + 1));
    let output = chatter(rng, size);
    let probe: string | undefined;
    let note = chatter(rng, 20 + Math.floor(rng() * 40));
    if (index % factEvery === 0) {
      const fact = factSentence(facts++);
      // Anywhere in the output: a cut of its middle may lose it, as it would in a real log.
      const at = output.indexOf(". ", Math.floor(rng() * output.length)) + 2 || output.length;
      output = `${output.slice(0, at)}${fact.text} ${output.slice(at)}`;
      probe = fact.probe;
      if (rng() < (scenario.restateShare ?? 0.5)) note = `${note} Found it: ${fact.text}`;
    }
    rounds.push({ ...(index % perTask === 0 ? { task: `Task ${index / perTask + 1}: ${chatter(rng, 30)}` } : {}), note, output, ...(probe ? { probe } : {}) });
  }
  return rounds;
}

/** The session through the engine with `settings` (defaults otherwise). */
export async function runAgentSession(scenario: AgentScenario): Promise<AgentResult> {
  const seed = scenario.seed ?? 1;
  const settings: CompressionSettings = { ...DEFAULT_SETTINGS, preserveFactLines: false, ...scenario.settings };
  // One cache for chat and summary requests: a summary request reuses the chat request's prefix, as a provider sees them.
  const cache = new PrefixCache();
  const summarizer = new OutsideSummarizer({ mode: scenario.summaryMode ?? "extractive" }, seed, cache);
  let id = 0;
  const manager = new AutoCompressionManager({
    summarizer,
    tokens: createTokenCounter(),
    models: { contextWindow: () => scenario.window },
    logger: QUIET,
    newId: () => `c${++id}`,
  });
  const systemPrompt = "You are a coding agent. Read what you need with the tools, then report.";
  // The transcript carries the tools a turn offers (the history tools join once anything is compressed), so the summary requests that reuse the chat prefix offer them too.
  const store = new MemoryStore(
    { conversationId: "agent", model: "outside", systemPrompt, systemPromptTokens: countMessageTokens({ role: "system", content: systemPrompt }), tools: TOOL_DEFINITIONS },
    { settings, contextWindow: scenario.window },
  );
  const result: AgentResult = {
    requests: 0,
    promptTokens: 0,
    cachedTokens: 0,
    summaryCalls: 0,
    summaryCostTokens: 0,
    summaryPromptTokens: 0,
    summaryCachedTokens: 0,
    summaryCompletionTokens: 0,
    clearings: 0,
    summaries: 0,
    truncations: 0,
    overWindow: 0,
    factsPlanted: 0,
    factsAnswered: 0,
    factsLookedUp: 0,
    changes: [],
    measured: [],
    store,
  };
  let last: { messages: ChatMessage[]; tools: outside.ToolShape[] } = { messages: [], tools: TOOLS_ON_WIRE };
  const save = (before: Transcript, change: CompressionChange) => {
    store.save(change);
    result.changes.push({ before, change });
    for (const record of change.created) {
      if (record.kind === "clearing") result.clearings++;
      else if (record.kind === "truncation") result.truncations++;
      else result.summaries++;
    }
  };
  const call = async (): Promise<{ serverTokens: number; ours: number }> => {
    const before = store.active();
    save(before, await manager.process(before, settings));
    const active = store.active();
    const { messages, breakdown } = manager.buildRequest(active, settings);
    // The history tools join the request once anything is compressed, as a turn offers them (MemoryStore's `offers`).
    const offered = active.tools ?? TOOL_DEFINITIONS;
    const tools = offered as unknown as outside.ToolShape[];
    const body = { messages: messages as unknown as outside.Message[], tools };
    const serverTokens = outside.promptTokens(body);
    result.requests++;
    result.promptTokens += serverTokens;
    result.cachedTokens += cache.see("chat", body);
    if (serverTokens > scenario.window) result.overWindow++;
    result.measured.push({ ours: breakdown.systemTokens + breakdown.summaryTokens + breakdown.messageTokens + breakdown.toolTokens, outside: serverTokens });
    last = { messages, tools };
    return { serverTokens, ours: countRequestTokens(messages, undefined, offered) };
  };
  const probes: string[] = [];
  for (const [index, round] of agentScript(scenario).entries()) {
    if (round.task) store.append({ role: "user", content: round.task, tokens: countMessageTokens({ role: "user", content: round.task }), pinned: false });
    if (round.probe) probes.push(round.probe);
    const sent = await call();
    const toolCall: ToolCall = { id: `call_${index + 1}`, name: "read_file", arguments: JSON.stringify({ path: `src/module-${index + 1}.log` }) };
    const wire: ChatMessage = { role: "assistant", content: round.note, tool_calls: [{ id: toolCall.id, type: "function", function: { name: toolCall.name, arguments: toolCall.arguments } }] };
    store.append({
      role: "assistant",
      content: round.note,
      toolCalls: [toolCall],
      tokens: countMessageTokens(wire),
      pinned: false,
      usage: { promptTokens: sent.serverTokens, completionTokens: 20, requestTokens: sent.ours },
    });
    store.append({
      role: "tool",
      content: round.output,
      toolCallId: toolCall.id,
      toolName: toolCall.name,
      tokens: countMessageTokens({ role: "tool", content: round.output, tool_call_id: toolCall.id }),
      pinned: false,
    });
    const before = store.active();
    save(before, await manager.process(before, settings, { background: true }));
  }
  await call();
  result.summaryCalls = summarizer.calls;
  result.summaryCostTokens = summarizer.promptTokens + summarizer.completionTokens;
  result.summaryPromptTokens = cache.totals.summary.prompt;
  result.summaryCachedTokens = cache.totals.summary.cached;
  result.summaryCompletionTokens = summarizer.completionTokens;
  result.factsPlanted = probes.length;
  const answered = factsAnswered(last.messages, probes, { tools: last.tools, search: (query) => memorySearchHistory(store.messages, query) });
  result.factsAnswered = answered.answered;
  result.factsLookedUp = answered.lookedUp;
  return result;
}

/** What the model may look a fact up with: the tools of the last request and search_history's answer, if offered. */
export type Lookup = { tools: outside.ToolShape[]; search: (query: string) => string };

/**
 * How many planted facts the outside model answers when asked `<<recall Falcon-N>>` after
 * `request`: from the request itself, or, with `lookup`, through one search_history call
 * when the request does not hold the word (its `search` chat mode).
 */
export function factsAnswered(request: ChatMessage[], probes: string[], lookup?: Lookup): { answered: number; lookedUp: number } {
  let answered = 0;
  let lookedUp = 0;
  const tools = lookup?.tools ?? TOOLS_ON_WIRE;
  for (const probe of probes) {
    const word = probe.split(" ")[0]!;
    const asked = [...request, { role: "user", content: `<<recall ${word}>>` }] as unknown as outside.Message[];
    let reply = outside.chatReply({ messages: asked, tools }, lookup ? "search" : "directed");
    let searched = false;
    if (reply.kind === "tool_call" && reply.name === "search_history" && lookup) {
      const { query } = JSON.parse(reply.arguments) as { query: string };
      const call = { id: "recall_1", type: "function", function: { name: reply.name, arguments: reply.arguments } };
      const followed = [...asked, { role: "assistant", content: "", tool_calls: [call] }, { role: "tool", tool_call_id: call.id, content: lookup.search(query) }];
      reply = outside.chatReply({ messages: followed as outside.Message[], tools }, "search");
      searched = true;
    }
    if (reply.kind === "text" && reply.text.includes(probe)) {
      answered++;
      if (searched) lookedUp++;
    }
  }
  return { answered, lookedUp };
}
