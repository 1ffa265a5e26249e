// An agent-style session run through the real engine, in memory, against the outside
// model (tests/support/outside-model): the user asks for a task every few rounds, the
// model answers each with tool calls whose outputs are long (1–20k tokens by the
// outside count), and facts are planted inside the outputs. What the model could answer
// at the end is asked the outside model's way: `<<recall WORD>>` on the last request.
// Used by tests/unit/engine/clearing.test.ts and bench/agent-session.ts.
import { AutoCompressionManager } from "@/lib/compression/manager";
import { DEFAULT_SETTINGS, type CompressionSettings } from "@/lib/compression/settings";
import type { ChatMessage, CompressionChange, CompressionLogger, ToolCall, Transcript } from "@/lib/compression/types";
import { TOOL_DEFINITIONS } from "@/lib/chat/tool-set";
import { countMessageTokens, countRequestTokens, createTokenCounter } from "@/lib/llm/tokens";
import * as outside from "./outside-model/behaviour";
import { chatter, factSentence, MemoryStore, OutsideSummarizer } from "./simulation";

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
  clearings: number;
  summaries: number;
  truncations: number;
  overWindow: number;
  factsPlanted: number;
  factsAnswered: number;
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
  const summarizer = new OutsideSummarizer({ mode: scenario.summaryMode ?? "extractive" }, seed);
  let id = 0;
  const manager = new AutoCompressionManager({
    summarizer,
    tokens: createTokenCounter(),
    models: { contextWindow: () => scenario.window },
    logger: QUIET,
    newId: () => `c${++id}`,
  });
  const systemPrompt = "You are a coding agent. Read what you need with the tools, then report.";
  const store = new MemoryStore({ conversationId: "agent", model: "outside", systemPrompt, systemPromptTokens: countMessageTokens({ role: "system", content: systemPrompt }) });
  const result: AgentResult = {
    requests: 0,
    promptTokens: 0,
    cachedTokens: 0,
    summaryCalls: 0,
    summaryCostTokens: 0,
    clearings: 0,
    summaries: 0,
    truncations: 0,
    overWindow: 0,
    factsPlanted: 0,
    factsAnswered: 0,
    changes: [],
    measured: [],
    store,
  };
  let previous: { messages: outside.Message[]; tools: outside.ToolShape[] } | undefined;
  let last: ChatMessage[] = [];
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
    const { messages, breakdown } = manager.buildRequest(store.active(), settings);
    const body = { messages: messages as unknown as outside.Message[], tools: TOOLS_ON_WIRE };
    const serverTokens = outside.promptTokens(body);
    result.requests++;
    result.promptTokens += serverTokens;
    result.cachedTokens += outside.cachedTokens(previous, body);
    if (serverTokens > scenario.window) result.overWindow++;
    result.measured.push({ ours: breakdown.systemTokens + breakdown.summaryTokens + breakdown.messageTokens + breakdown.toolTokens, outside: serverTokens });
    previous = body;
    last = messages;
    return { serverTokens, ours: countRequestTokens(messages, undefined, TOOL_DEFINITIONS) };
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
  result.factsPlanted = probes.length;
  result.factsAnswered = factsAnswered(last, probes);
  return result;
}

/** How many planted facts the outside model answers from `request` when asked `<<recall Falcon-N>>` after it. */
export function factsAnswered(request: ChatMessage[], probes: string[]): number {
  let answered = 0;
  for (const probe of probes) {
    const word = probe.split(" ")[0]!;
    const asked = [...request, { role: "user", content: `<<recall ${word}>>` }] as unknown as outside.Message[];
    const reply = outside.chatReply({ messages: asked, tools: TOOLS_ON_WIRE });
    if (reply.kind === "text" && reply.text.includes(probe)) answered++;
  }
  return answered;
}
