// A whole conversation run through the real engine, in memory and fast, against the
// outside model (tests/support/outside-model): its own token count decides whether a
// request fits, its own summaries (terse, verbose, cut, empty, foreign, fact-dropping,
// failing, slow) are what the engine has to live with. The store below does what
// lib/db does with a CompressionChange (supersede children, keep kept seqs); the turn
// loop does what lib/chat/turn.ts does (process → buildRequest → reply → background).
import { AutoCompressionManager } from "@/lib/compression/manager";
import { DEFAULT_SETTINGS, type CompressionSettings } from "@/lib/compression/settings";
import type {
  ChatMessage,
  ClearingRecord,
  CompactionRecord,
  CompressionChange,
  CompressionLogger,
  SummaryReply,
  SummaryRequest,
  Summarizer,
  ToolCall,
  Transcript,
  TranscriptMessage,
} from "@/lib/compression/types";
import { offeredOutsideTurn, TOOL_DEFINITIONS, REQUEST_OVERHEAD_TOKENS } from "@/lib/chat/tool-set";
import { countMessageTokens, countRequestTokens, createTokenCounter } from "@/lib/llm/tokens";
import * as outside from "./outside-model/behaviour";

export type MessageSize = "short" | "medium" | "long" | "mixed";
export type SummarizerSpec = {
  mode: outside.SummaryMode;
  /** Share of summary calls that fail with a server error. */
  failRate?: number;
  /** Every summary call takes longer than the pass deadline allows. */
  slow?: boolean;
  /** Whether summaries open with the title line the request asks for (default: they do). */
  titles?: outside.TitleMode;
  /** Whether summaries cite the labelled messages they came from (default: they do not). */
  cite?: outside.CiteMode;
};
export type Scenario = {
  window: number;
  turns: number;
  size: MessageSize;
  summarizer: SummarizerSpec;
  settings?: Partial<CompressionSettings>;
  usage?: "always" | "never" | "random";
  seed?: number;
  /** Plant a fact every this many turns (0: none). */
  factEvery?: number;
  systemPrompt?: string;
  /** The first this many turns arrive at once, as an import does: stored with no model call and no compaction. */
  importedTurns?: number;
};

export type Violation = { turn: number; kind: string; detail: string };

export type SimResult = {
  scenario: Scenario;
  turns: number;
  requests: number;
  /** Largest request / window, by the outside server's count. */
  maxRequestShare: number;
  overWindow: number;
  summaryCalls: number;
  failedSummaryCalls: number;
  summaryCallsPer100Turns: number;
  maxSummaryBlocks: number;
  truncations: number;
  /** Facts planted and still visible in the last request, by how deep they are compacted (0 = verbatim). */
  retention: { planted: number; visible: number; byDepth: Record<string, { planted: number; visible: number }> };
  promptTokens: number;
  summaryTokens: number;
  /** Everything the summary calls cost: what they were sent plus what they wrote. */
  summaryCostTokens: number;
  /** What the conversation itself added per turn, by the outside count (user, replies, tool results). */
  tokensPerTurn: number;
  /** Compactions made, by what made them. */
  made: { summaries: number; merges: number; truncations: number; clearings: number };
  /** Attempts by outcome, and the most common reasons of the ones that failed. */
  attempts: { applied: number; failed: number; skipped: number; failedReasons: Record<string, number> };
  /** The highest level of any summary written. */
  highestLevel: number;
  /** The highest level of any record in the tree (truncations included; withdrawn ones aside). */
  highestRecordLevel: number;
  /** Messages the conversation has at the end. */
  messages: number;
  /** Per planted fact: how many summaries were written over its message (each one a pass of a summarizer over it). */
  passes: { median: number; max: number; perFact: number[] };
  /** Share of the chat requests' prompt tokens a provider's prefix cache could serve (the outside model's rule and count). */
  cachedShare: number;
  /** The same for the summary requests, and for all prompt tokens (chat and summary requests together). */
  summaryPromptTokens: number;
  summaryCachedShare: number;
  allCachedShare: number;
  violations: Violation[];
  /** Every summary written (superseded ones too), with the range it covers. */
  summaries: { fromSeq: number; toSeq: number; level: number; summary: string }[];
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;


type Body = { messages: outside.Message[]; tools?: outside.ToolShape[] };

/** The outside model's prefix cache over one conversation: chat and summary requests, each against the newest of both kinds. */
export class PrefixCache {
  private last: Record<"chat" | "summary", Body | undefined> = { chat: undefined, summary: undefined };
  readonly totals = { chat: { prompt: 0, cached: 0 }, summary: { prompt: 0, cached: 0 } };

  /** Records a request; returns what the cache could serve of it. */
  see(kind: "chat" | "summary", body: Body): number {
    const cached = outside.cachedAfter([this.last.chat, this.last.summary], body);
    this.last[kind] = body;
    this.totals[kind].prompt += outside.promptTokens(body);
    this.totals[kind].cached += cached;
    return cached;
  }
}

/** The outside model as the engine's Summarizer, in-process: same rules as its HTTP server. */
export class OutsideSummarizer implements Summarizer {
  calls = 0;
  failures = 0;
  completionTokens = 0;
  /** What the summary calls cost, by the outside count: what they were sent. */
  promptTokens = 0;
  /** Every request as the outside model received it. */
  readonly requests: Body[] = [];
  private readonly rng: () => number;

  constructor(
    private readonly spec: SummarizerSpec,
    seed: number,
    private readonly cache = new PrefixCache(),
  ) {
    this.rng = outside.mulberry32(seed);
  }

  async complete(request: SummaryRequest): Promise<SummaryReply> {
    this.calls++;
    const messages = request.messages as unknown as outside.Message[];
    const body: Body = { messages, ...(request.tools?.length ? { tools: request.tools as unknown as outside.ToolShape[] } : {}) };
    this.requests.push(body);
    this.promptTokens += outside.promptTokens(body);
    const cached = this.cache.see("summary", body);
    if (process.env.SIM_CACHE) console.log(`  summary prompt ${outside.promptTokens(body)} cached ${cached} ${outside.trailingInstruction(messages)?.split("\n")[1]?.slice(0, 200) ?? "(compact)"}`);
    if (outside.classify(body) !== "summary") throw new Error("the outside model did not see a summary request");
    if (this.spec.failRate && this.rng() < this.spec.failRate) {
      this.failures++;
      throw new Error("500 The server had an error while processing your request.");
    }
    if (this.spec.slow) {
      this.failures++;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, request.timeoutMs + 1000);
        request.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("aborted"));
        });
      });
    }
    const title = (this.spec.titles ?? "follow") === "follow" && outside.asksForTitle(messages);
    const reply = outside.summarize(outside.materialOf(messages), this.spec.mode, request.maxTokens, request.json ?? false, this.rng, {
      title,
      ...(this.spec.cite ? { cite: this.spec.cite } : {}),
    });
    this.completionTokens += outside.countText(reply.text);
    return { text: reply.text, finishReason: reply.finishReason };
  }
}

/** What lib/db keeps: every message, every compaction with its parent link. */
type StoredRecord = CompactionRecord & { supersededById?: string; withdrawn?: boolean };

export class MemoryStore {
  readonly messages: TranscriptMessage[] = [];
  /** `withdrawn`: a truncation the next one absorbed (CompactionRecord.absorbsId), as the database marks it undone. */
  readonly compactions = new Map<string, StoredRecord>();

  /**
   * With `offers`, the transcript carries the tools a turn would offer for it (the history
   * tools join once anything is compressed, lib/chat/tool-set.ts), as the app loads it.
   */
  constructor(
    private readonly base: Pick<Transcript, "conversationId" | "model" | "systemPrompt" | "systemPromptTokens" | "tools"> & { toolTokens?: number },
    private readonly offers?: { settings: Pick<CompressionSettings, "recallMode">; contextWindow: number },
  ) {}

  append(message: DistributiveOmit<TranscriptMessage, "seq">): TranscriptMessage {
    const stored = { ...message, seq: this.messages.length + 1 } as TranscriptMessage;
    this.messages.push(stored);
    return stored;
  }

  active(): Transcript {
    const all = [...this.compactions.values()].filter((c) => !c.supersededById && !c.withdrawn).sort((a, b) => a.fromSeq - b.fromSeq);
    // Clearings cover nothing: their messages stay, shown as notes (as lib/db/transcript.ts loads them).
    const compactions = all.filter((c) => c.kind !== "clearing");
    const clearings = all.filter((c): c is ClearingRecord & { supersededById?: string } => c.kind === "clearing");
    const kept = new Set(compactions.flatMap((c) => c.keptSeqs));
    const covered = (seq: number) => compactions.some((c) => c.fromSeq <= seq && seq <= c.toSeq);
    const offered = this.offers && offeredOutsideTurn(this.offers.settings, compactions.length > 0 || clearings.length > 0, this.offers.contextWindow);
    return {
      ...this.base,
      toolTokens: offered?.overheadTokens ?? this.base.toolTokens ?? REQUEST_OVERHEAD_TOKENS,
      ...(offered ? { tools: offered.definitions } : {}),
      compactions: compactions.map(({ supersededById: _parent, ...c }) => c),
      ...(clearings.length ? { clearings: clearings.map(({ supersededById: _parent, ...c }) => c) } : {}),
      messages: this.messages.filter((m) => m.pinned || kept.has(m.seq) || !covered(m.seq)),
      totalMessageCount: this.messages.length,
    };
  }

  save(change: CompressionChange): void {
    for (const record of change.created) {
      for (const childId of record.childIds) {
        const child = this.compactions.get(childId);
        if (!child || child.supersededById) throw new Error(`compaction ${record.id} merges ${childId}, which is not active`);
        child.supersededById = record.id;
      }
      const absorbs = record.kind === "truncation" ? record.absorbsId : undefined;
      if (absorbs) {
        const absorbed = this.compactions.get(absorbs);
        if (!absorbed || absorbed.supersededById || absorbed.withdrawn || absorbed.kind !== "truncation") throw new Error(`truncation ${record.id} absorbs ${absorbs}, which is not an active truncation`);
        for (const child of this.compactions.values()) if (child.supersededById === absorbs) child.supersededById = record.id;
        absorbed.withdrawn = true;
      }
      // A clearing overlaps only clearings (it absorbs them); summaries and truncations only each other.
      const overlap = [...this.compactions.values()].find(
        (c) =>
          !c.supersededById &&
          !c.withdrawn &&
          c.id !== record.id &&
          (c.kind === "clearing") === (record.kind === "clearing") &&
          !record.childIds.includes(c.id) &&
          c.fromSeq <= record.toSeq &&
          c.toSeq >= record.fromSeq,
      );
      if (overlap) throw new Error(`compaction ${record.fromSeq}–${record.toSeq} overlaps active ${overlap.fromSeq}–${overlap.toSeq}`);
      this.compactions.set(record.id, { ...record });
    }
    for (const { id, text } of change.setAside ?? []) {
      const record = this.compactions.get(id);
      if (!record || record.supersededById || record.kind !== "summary") throw new Error(`compaction ${id} leaves the view but is not an active summary`);
      record.outOfView = text;
    }
    // What the engine says the transcript now is must be what loading it gives.
    const loaded = this.active();
    const same = (a: number[] | string[], b: number[] | string[]) => a.length === b.length && a.every((value, index) => value === b[index]);
    const ids = (t: Transcript) => [...t.compactions, ...(t.clearings ?? [])].map((c) => c.id);
    if (!same(ids(change.transcript), ids(loaded)) || !same(change.transcript.messages.map((m) => m.seq), loaded.messages.map((m) => m.seq))) {
      throw new Error("the change's transcript differs from the one the store loads");
    }
  }

  /** Every original message is either in view or under exactly one active compaction; pinned ones are in view; nothing active overlaps. */
  coverageProblems(): string[] {
    const active = this.active();
    const inView = new Set(active.messages.map((m) => m.seq));
    const problems: string[] = [];
    for (let i = 1; i < active.compactions.length; i++) {
      if (active.compactions[i]!.fromSeq <= active.compactions[i - 1]!.toSeq) problems.push(`active compactions ${i - 1} and ${i} overlap`);
    }
    for (const message of this.messages) {
      const covering = active.compactions.filter((c) => c.fromSeq <= message.seq && message.seq <= c.toSeq).length;
      if (message.pinned && !inView.has(message.seq)) problems.push(`pinned message ${message.seq} is not in view`);
      if (!inView.has(message.seq) && covering !== 1) problems.push(`message ${message.seq} is under ${covering} active compactions and not in view`);
    }
    return problems;
  }

  /**
   * Nothing lost from the tree: every compaction ever stored is active or merged into
   * one that is (no dangling parent link), each inside its parent's range and below its
   * level, and every original message is still stored under its own number.
   */
  treeProblems(): string[] {
    const problems: string[] = [];
    for (const compaction of this.compactions.values()) {
      const seen = new Set<string>();
      if (compaction.withdrawn) continue;
      let node: StoredRecord | undefined = compaction;
      while (node?.supersededById && !seen.has(node.id)) {
        seen.add(node.id);
        const parent: StoredRecord | undefined = this.compactions.get(node.supersededById);
        if (!parent || parent.withdrawn) {
          problems.push(`compaction ${node.id} is merged into ${node.supersededById}, which is ${parent ? "withdrawn" : "not stored"}`);
          break;
        }
        // A clearing absorbs earlier clearings at its own level 0; every other parent stands above its children.
        if (parent.fromSeq > node.fromSeq || parent.toSeq < node.toSeq || (parent.kind !== "clearing" && parent.level <= node.level)) {
          problems.push(`compaction ${node.fromSeq}–${node.toSeq} (level ${node.level}) is not inside its parent ${parent.fromSeq}–${parent.toSeq} (level ${parent.level})`);
        }
        node = parent;
      }
    }
    this.messages.forEach((message, index) => {
      if (message.seq !== index + 1) problems.push(`message ${index + 1} is stored as ${message.seq}`);
    });
    return problems;
  }

  /** Depth of the active compaction covering `seq` (0 when the message is in view itself). */
  depthOf(seq: number): number {
    const active = this.active();
    if (active.messages.some((m) => m.seq === seq)) return 0;
    return active.compactions.find((c) => c.fromSeq <= seq && seq <= c.toSeq)?.level ?? -1;
  }
}

class QuietLogger implements CompressionLogger {
  info() {}
  warn() {}
  error() {}
}

const WORDS = ["the", "plan", "looks", "fine", "we", "should", "check", "again", "later", "this", "part", "needs", "work", "maybe", "next", "week", "it", "seems", "quite", "slow", "today", "and", "then"];

/** Ordinary chat text: lowercase sentences with nothing a summary must keep. */
export function chatter(rng: () => number, outsideTokens: number): string {
  const sentences: string[] = [];
  let length = 0;
  while (length < outsideTokens * 4) {
    const count = 6 + Math.floor(rng() * 10);
    const words = Array.from({ length: count }, () => WORDS[Math.floor(rng() * WORDS.length)]!);
    const sentence = `${words.join(" ")}.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(" ");
}

/** A fact as people state them: a plain sentence with a name and a number, unique per index. */
export function factSentence(index: number): { text: string; probe: string } {
  const port = 4000 + index * 7;
  return { text: `Project Falcon-${index} uses port ${port} in production.`, probe: `Falcon-${index} uses port ${port}` };
}

function sizes(size: MessageSize, rng: () => number, turn: number): { user: number; reply: number; toolResult?: number } {
  const between = (min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
  switch (size) {
    case "short":
      return { user: between(30, 80), reply: between(60, 150) };
    case "medium":
      return { user: between(60, 140), reply: between(140, 260) };
    case "long":
      return { user: between(200, 500), reply: between(300, 700) };
    case "mixed":
      return turn % 12 === 11
        ? { user: between(30, 80), reply: between(60, 150), toolResult: 5000 }
        : rng() < 0.3
          ? { user: between(200, 500), reply: between(300, 700) }
          : { user: between(30, 80), reply: between(60, 150) };
  }
}

/** One turn of a scripted conversation: what the user says, what the model answers, and a tool result in between if any. */
export type ScriptedTurn = { user: string; reply: string; toolOutput?: string; probe?: string };

/** The conversation of a scenario, the same for Strata and for the baselines it is compared with. */
export function scriptOf(scenario: Pick<Scenario, "turns" | "size" | "factEvery" | "seed" | "window">): ScriptedTurn[] {
  const rng = outside.mulberry32((scenario.seed ?? 1) * 7919 + scenario.window);
  const turns: ScriptedTurn[] = [];
  let facts = 0;
  for (let turn = 0; turn < scenario.turns; turn++) {
    const size = sizes(scenario.size, rng, turn);
    let user = chatter(rng, size.user);
    let probe: string | undefined;
    if (scenario.factEvery && turn % scenario.factEvery === 0) {
      const fact = factSentence(facts++);
      user = `${user}\n${fact.text}`;
      probe = fact.probe;
    }
    const toolOutput = size.toolResult ? chatter(rng, size.toolResult) : undefined;
    turns.push({ user, reply: chatter(rng, size.reply), ...(toolOutput ? { toolOutput } : {}), ...(probe ? { probe } : {}) });
  }
  return turns;
}

export function requestText(messages: ChatMessage[]): string {
  return messages.map((m) => [m.content ?? "", ...(m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.function.arguments) : [])].join("\n")).join("\n");
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

export async function simulate(scenario: Scenario): Promise<SimResult> {
  const seed = scenario.seed ?? 1;
  // Usage that goes missing at random has its own generator: the conversation is the script's.
  const rng = outside.mulberry32(seed * 104_729 + scenario.window);
  const settings: CompressionSettings = { ...DEFAULT_SETTINGS, preserveFactLines: false, ...scenario.settings };
  const tokens = createTokenCounter();
  const prefixCache = new PrefixCache();
  const summarizer = new OutsideSummarizer(scenario.summarizer, seed, prefixCache);
  let id = 0;
  const manager = new AutoCompressionManager({
    summarizer,
    tokens,
    models: { contextWindow: (_model, overrides) => overrides?.["outside-small"] ?? scenario.window },
    logger: new QuietLogger(),
    newId: () => `c${++id}`,
  });
  const systemPrompt = scenario.systemPrompt ?? "You are a helpful assistant for a software team.";
  const store = new MemoryStore({
    conversationId: "sim",
    model: "outside-small",
    systemPrompt,
    systemPromptTokens: countMessageTokens({ role: "system", content: systemPrompt }),
    tools: TOOL_DEFINITIONS,
  }, { settings, contextWindow: scenario.window });
  const budget = () => manager.budget(store.active(), settings);
  const violations: Violation[] = [];
  const facts: { seq: number; probe: string }[] = [];
  const result = { requests: 0, maxRequestShare: 0, overWindow: 0, maxSummaryBlocks: 0, truncations: 0, promptTokens: 0 };
  let lastRequest = "";
  let cachedTokens = 0;
  let toolCallCount = 0;
  let added = 0;
  const append = (message: Parameters<MemoryStore["append"]>[0]) => {
    added += 4 + outside.countText(message.content);
    return store.append(message);
  };

  const made = { summaries: 0, merges: 0, truncations: 0, clearings: 0 };
  const attempts = { applied: 0, failed: 0, skipped: 0, failedReasons: {} as Record<string, number> };
  // SIM_FACTS: say which change took a planted fact out of the active context, and what each summary then held.
  let factsHeld = new Set<string>();
  const traceFacts = (turn: number, change: CompressionChange) => {
    const active = store.active();
    const text = [...active.compactions.map((c) => c.summary), ...active.messages.map((m) => m.content)].join("\n");
    const held = new Set(facts.filter((fact) => text.includes(fact.probe)).map((fact) => fact.probe));
    const lost = [...factsHeld].filter((probe) => !held.has(probe));
    factsHeld = held;
    if (lost.length === 0) return;
    const blocks = active.compactions.map((c) => `L${c.level}:${c.summaryTokens}t:${facts.filter((fact) => c.summary.includes(fact.probe)).length}f`);
    console.log(`  t${turn} lost ${lost.join(", ")} by: ${change.attempts.map((a) => a.reason.slice(0, 100)).join(" | ")} [${blocks.join(" ")}]`);
  };
  const checkChange = (turn: number, before: Transcript, change: CompressionChange, callsBefore: number, failuresBefore: number) => {
    store.save(change);
    if (process.env.SIM_FACTS) traceFacts(turn, change);
    for (const record of change.created) {
      if (record.kind === "truncation") made.truncations++;
      else if (record.kind === "clearing") made.clearings++;
      else if (record.childIds.length > 0) made.merges++;
      else made.summaries++;
    }
    for (const attempt of change.attempts) {
      if (process.env.SIM_TRACE) console.log(`  t${turn} ${attempt.background ? "bg" : "fg"} ${attempt.outcome} ${attempt.tokensBefore}→${attempt.outcome === "applied" ? attempt.tokensAfter : "-"} ${attempt.reason.slice(0, 150)} [${store.active().compactions.map((c) => `L${c.level}:${c.summaryTokens}`).join(" ")}]`);
      attempts[attempt.outcome]++;
      if (attempt.outcome === "failed") {
        const key = attempt.reason.replace(/[\d,]+/g, "N").slice(0, 80);
        attempts.failedReasons[key] = (attempts.failedReasons[key] ?? 0) + 1;
      }
    }
    for (const record of change.created) {
      if (record.kind !== "truncation") continue;
      result.truncations++;
      const summarizerFailed = summarizer.failures > failuresBefore || change.attempts.some((a) => a.outcome === "failed");
      if (summarizerFailed) continue;
      // Allowed only when the protected part alone (system prompt, kept/pinned messages,
      // the current turn) is over the hard limit.
      const active = before;
      const lastUser = active.messages.findLast((m) => m.role === "user");
      const protectedOurs =
        active.systemPromptTokens +
        active.toolTokens +
        active.messages.filter((m) => (lastUser && m.seq >= lastUser.seq) || m.pinned).reduce((sum, m) => sum + m.tokens, 0);
      const factor = manager.measure(active, settings).calibration.factor;
      if (protectedOurs * factor <= budget().hardLimit) {
        violations.push({
          turn,
          kind: "truncation while summaries succeed",
          detail: `messages ${record.fromSeq}–${record.toSeq} truncated, ${summarizer.calls - callsBefore} summary calls this pass, protected part ${Math.round(protectedOurs * factor)} ≤ hard limit ${budget().hardLimit}`,
        });
      }
    }
  };

  const modelCall = async (turn: number): Promise<{ messages: ChatMessage[]; serverTokens: number; ours: number }> => {
    const callsBefore = summarizer.calls;
    const failuresBefore = summarizer.failures;
    const before = store.active();
    checkChange(turn, before, await manager.process(before, settings), callsBefore, failuresBefore);
    const active = store.active();
    const { messages } = manager.buildRequest(active, settings);
    const body = { messages: messages as unknown as outside.Message[], tools: (active.tools ?? TOOL_DEFINITIONS) as unknown as outside.ToolShape[] };
    const serverTokens = outside.promptTokens(body);
    const cached = prefixCache.see("chat", body);
    // SIM_CACHE: what each request could take from the provider's prefix cache.
    if (process.env.SIM_CACHE) console.log(`  t${turn} prompt ${serverTokens} cached ${cached} [${active.compactions.map((c) => `L${c.level}:${c.summaryTokens}`).join(" ")}]`);
    cachedTokens += cached;
    result.requests++;
    result.promptTokens += serverTokens;
    result.maxRequestShare = Math.max(result.maxRequestShare, serverTokens / scenario.window);
    if (serverTokens > scenario.window) {
      result.overWindow++;
      violations.push({ turn, kind: "request over the window", detail: `${serverTokens} > ${scenario.window} by the outside count` });
    }
    // Summaries out of view are one line each (at most MAX_OUT_OF_VIEW_LINES of them): blocks are the ones in view.
    const blocks = active.compactions.filter((c) => c.outOfView === undefined).length;
    result.maxSummaryBlocks = Math.max(result.maxSummaryBlocks, blocks);
    // Whatever an active summary says must reach the model.
    const text = requestText(messages);
    for (const fact of facts) {
      // What stands for a summary in the request must reach the model: its text in view, its stand-in out of view.
      const inSummary = active.compactions.some((c) => (c.outOfView ?? c.summary).includes(fact.probe));
      if (inSummary && !text.includes(fact.probe)) violations.push({ turn, kind: "kept fact not visible", detail: fact.probe });
    }
    lastRequest = text;
    return { messages, serverTokens, ours: countRequestTokens(messages, undefined, active.tools ?? TOOL_DEFINITIONS) };
  };

  const usageFor = (serverTokens: number, ours: number, completion: number) => {
    const mode = scenario.usage ?? "always";
    if (mode === "never" || (mode === "random" && rng() < 0.5)) return {};
    return { usage: { promptTokens: serverTokens, completionTokens: completion, requestTokens: ours } };
  };

  const script = scriptOf(scenario);
  for (const [turn, scripted] of script.entries()) {
    const content = scripted.user;
    if (scripted.probe) facts.push({ seq: store.messages.length + 1, probe: scripted.probe });
    append({ role: "user", content, tokens: countMessageTokens({ role: "user", content }), pinned: false });
    if (turn < (scenario.importedTurns ?? 0)) {
      append({ role: "assistant", content: scripted.reply, tokens: countMessageTokens({ role: "assistant", content: scripted.reply }), pinned: false });
      continue;
    }

    if (scripted.toolOutput) {
      const call = await modelCall(turn);
      const toolCall: ToolCall = { id: `call_${++toolCallCount}`, name: "current_time", arguments: "{}" };
      const wire: ChatMessage = { role: "assistant", content: null, tool_calls: [{ id: toolCall.id, type: "function", function: { name: toolCall.name, arguments: toolCall.arguments } }] };
      append({ role: "assistant", content: "", toolCalls: [toolCall], tokens: countMessageTokens(wire), pinned: false, ...usageFor(call.serverTokens, call.ours, 10) });
      const output = scripted.toolOutput;
      append({ role: "tool", content: output, toolCallId: toolCall.id, toolName: toolCall.name, tokens: countMessageTokens({ role: "tool", content: output, tool_call_id: toolCall.id }), pinned: false });
    }
    const call = await modelCall(turn);
    const reply = scripted.reply;
    append({ role: "assistant", content: reply, tokens: countMessageTokens({ role: "assistant", content: reply }), pinned: false, ...usageFor(call.serverTokens, call.ours, outside.countText(reply)) });

    const callsBefore = summarizer.calls;
    const failuresBefore = summarizer.failures;
    const before = store.active();
    checkChange(turn, before, await manager.process(before, settings, { background: true }), callsBefore, failuresBefore);
  }

  // SIM_DUMP: the active summaries at the end, as stored.
  if (process.env.SIM_DUMP) for (const c of store.active().compactions) console.log(`--- level ${c.level}, messages ${c.fromSeq}–${c.toSeq}, ${c.summaryTokens} tokens\n${c.outOfView !== undefined ? `(out of view) ${c.outOfView}` : c.summary}`);
  for (const problem of store.coverageProblems()) violations.push({ turn: scenario.turns, kind: "original message lost", detail: problem });
  for (const problem of store.treeProblems()) violations.push({ turn: scenario.turns, kind: "tree broken", detail: problem });
  const byDepth: Record<string, { planted: number; visible: number }> = {};
  let visible = 0;
  for (const fact of facts) {
    const depth = store.depthOf(fact.seq);
    const key = depth >= 3 ? "3+" : String(depth);
    byDepth[key] ??= { planted: 0, visible: 0 };
    byDepth[key].planted++;
    if (lastRequest.includes(fact.probe)) {
      byDepth[key].visible++;
      visible++;
    }
  }
  const everything = [...store.compactions.values()].filter((c) => c.kind === "summary");
  const perFact = facts.map((fact) => everything.filter((c) => c.fromSeq <= fact.seq && fact.seq <= c.toSeq).length).sort((a, b) => a - b);
  return {
    scenario,
    turns: scenario.turns,
    ...result,
    highestLevel: Math.max(0, ...everything.map((c) => c.level)),
    highestRecordLevel: Math.max(0, ...[...store.compactions.values()].filter((c) => !c.withdrawn).map((c) => c.level)),
    messages: store.messages.length,
    passes: { median: perFact.length ? perFact[Math.floor((perFact.length - 1) / 2)]! : 0, max: Math.max(0, ...perFact), perFact },
    cachedShare: result.promptTokens > 0 ? cachedTokens / result.promptTokens : 0,
    summaryPromptTokens: prefixCache.totals.summary.prompt,
    summaryCachedShare: share(prefixCache.totals.summary.cached, prefixCache.totals.summary.prompt),
    allCachedShare: share(prefixCache.totals.chat.cached + prefixCache.totals.summary.cached, prefixCache.totals.chat.prompt + prefixCache.totals.summary.prompt),
    summaryCalls: summarizer.calls,
    failedSummaryCalls: summarizer.failures,
    summaryCallsPer100Turns: (summarizer.calls / scenario.turns) * 100,
    retention: { planted: facts.length, visible, byDepth },
    summaryTokens: summarizer.completionTokens,
    summaryCostTokens: summarizer.promptTokens + summarizer.completionTokens,
    tokensPerTurn: added / scenario.turns,
    made,
    attempts,
    violations,
    summaries: everything.map(({ fromSeq, toSeq, level, summary }) => ({ fromSeq, toSeq, level, summary })),
  };
}
