// Deterministic stand-ins for everything the engine gets injected.
import { AutoCompressionManager } from "@/lib/compression/manager";
import { DEFAULT_SETTINGS, type CompressionSettings } from "@/lib/compression/settings";
import { expect } from "vitest";
import type {
  ApplyProvidedInput,
  ChatMessage,
  CompactionRecord,
  SummaryCompaction,
  CompactNowOptions,
  CompressionLogger,
  ProcessOptions,
  SummaryReply,
  SummaryRequest,
  Summarizer,
  TokenCounter,
  ToolCall,
  Transcript,
  TranscriptMessage,
} from "@/lib/compression/types";

/** About four characters a token, like English text under tiktoken. */
export const counter: TokenCounter = { count: (text) => Math.ceil(text.length / 4) };
export const OVERHEAD = 4;

/** What a chat message costs on the wire under `counter`; stored tokens use the same rule. */
export function wireTokens(message: ChatMessage): number {
  const args = message.role === "assistant" ? (message.tool_calls ?? []).map((c) => c.function.name + c.function.arguments).join("") : "";
  return counter.count((message.content ?? "") + args) + OVERHEAD;
}

let nextSeq = 1;
export function resetSeq(value = 1): void {
  nextSeq = value;
}

type Extra = { pinned?: boolean; seq?: number; toolCalls?: ToolCall[]; toolCallId?: string; toolName?: string; usage?: { promptTokens: number; completionTokens: number; requestTokens: number } };

export function msg(role: TranscriptMessage["role"], content: string, extra: Extra = {}): TranscriptMessage {
  const seq = extra.seq ?? nextSeq++;
  const args = (extra.toolCalls ?? []).map((c) => c.name + c.arguments).join("");
  const base = { seq, content, tokens: counter.count(content + args) + OVERHEAD, pinned: extra.pinned ?? false };
  switch (role) {
    case "assistant":
      return { ...base, role, ...(extra.toolCalls ? { toolCalls: extra.toolCalls } : {}), ...(extra.usage ? { usage: extra.usage } : {}) };
    case "tool":
      return { ...base, role, toolCallId: extra.toolCallId ?? "call", ...(extra.toolName ? { toolName: extra.toolName } : {}) };
    default:
      return { ...base, role };
  }
}

export const text = (chars: number, label = "x") => `${label} `.repeat(Math.ceil(chars / (label.length + 1))).slice(0, chars);

/** `pairs` user/assistant exchanges of about `chars` characters each. */
export function chat(pairs: number, chars = 400): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (let i = 0; i < pairs; i++) {
    messages.push(msg("user", `question ${i}: ${text(chars - 14, "ask")}`));
    messages.push(msg("assistant", `answer ${i}: ${text(chars - 12, "reply")}`));
  }
  return messages;
}

export function transcriptOf(messages: TranscriptMessage[], overrides: Partial<Transcript> = {}): Transcript {
  const systemPrompt = overrides.systemPrompt ?? "You are a helpful assistant.";
  return {
    conversationId: "conv-1",
    model: "chat-model",
    systemPrompt,
    systemPromptTokens: counter.count(systemPrompt) + OVERHEAD,
    toolTokens: 0,
    compactions: [],
    messages,
    totalMessageCount: messages.length,
    ...overrides,
  };
}

/** The test model's reading: `FACT key=value`, value up to whitespace, trailing punctuation dropped. */
export function factsIn(value: string): string[] {
  const lines = [...value.matchAll(/FACT ([^\s=]+)=(\S+)/g)].map((m) => `FACT ${m[1]}=${m[2]!.replace(/[.,;:!?)\]}"'`*]+$/, "")}`);
  return [...new Set(lines)];
}

/** Replies like a model that follows the request: keeps FACT lines; JSON when asked, one line when the instructions ask for one. */
export function serverLikeReply(request: SummaryRequest): string {
  const first = request.messages[0]?.content ?? "";
  const facts = factsIn(request.messages.map((m) => m.content ?? "").join("\n"));
  if (request.json) {
    return JSON.stringify({ goals: ["finish the task"], decisions: ["use plan A"], completed: ["step 1"], openItems: ["step 2"], facts });
  }
  if (/\binto one line\b/i.test(first)) return "user asked, assistant answered";
  return ["Summary: the user and assistant worked on the task.", ...facts].join("\n");
}

export type SummarizerBehaviour = "ok" | "throw" | "hang" | "empty" | "invalid_json";

export class FakeSummarizer implements Summarizer {
  readonly calls: SummaryRequest[] = [];
  behaviour: SummarizerBehaviour = "ok";
  delayMs = 0;
  /** What the model says about how it stopped ("length": cut at max_tokens). */
  finishReason?: string;
  inFlight = 0;
  maxInFlight = 0;
  /** Per-call override; return undefined to fall back to the behaviour. */
  respond?: (request: SummaryRequest, index: number) => string | Error | undefined;

  async complete(request: SummaryRequest): Promise<SummaryReply> {
    const index = this.calls.length;
    this.calls.push(request);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      const custom = this.respond?.(request, index);
      if (custom instanceof Error) throw custom;
      const finish = this.finishReason ? { finishReason: this.finishReason } : {};
      if (custom !== undefined) return { text: custom, ...finish };
      switch (this.behaviour) {
        case "throw":
          throw new Error("503 upstream unavailable");
        case "hang":
          // Ignores the abort signal on purpose: the engine must enforce the timeout itself.
          return await new Promise<never>(() => undefined);
        case "empty":
          return { text: "   \n" };
        case "invalid_json":
          return { text: "```json\n{ goals: oops\n```" };
        default:
          return { text: serverLikeReply(request) };
      }
    } finally {
      this.inFlight--;
    }
  }

  /** The first line of each request's system message: which instructions it was given. */
  firstLines(): string[] {
    return this.calls.map((call) => (call.messages[0]?.content ?? "").split("\n")[0]!);
  }
}

/** The settings a test changes between calls; each call gets a snapshot, as a turn does. */
export class MutableSettings {
  constructor(public values: CompressionSettings) {}
  snapshot(): CompressionSettings {
    return structuredClone(this.values);
  }
  set(patch: Partial<CompressionSettings>): void {
    this.values = { ...this.values, ...patch };
  }
}

export type LogEntry = { level: "info" | "warn" | "error"; fields: Record<string, unknown>; message: string };
export class MemoryLogger implements CompressionLogger {
  readonly entries: LogEntry[] = [];
  info(fields: Record<string, unknown>, message: string) {
    this.entries.push({ level: "info", fields, message });
  }
  warn(fields: Record<string, unknown>, message: string) {
    this.entries.push({ level: "warn", fields, message });
  }
  error(fields: Record<string, unknown>, message: string) {
    this.entries.push({ level: "error", fields, message });
  }
}

/** A small window so compression shows up after a few messages. */
export const TEST_SETTINGS: CompressionSettings = {
  ...DEFAULT_SETTINGS,
  threshold: 0.8,
  preemptiveThreshold: 0.65,
  hardLimitReserve: 200,
  keepRecentCount: 4,
  summaryMaxTokens: 200,
  maxSummaryTokensPerLevel: 3000,
  // Carrying details changes what is stored; its own tests switch it on.
  carryDetails: false,
  // A summary model of its own: these tests read the compact framing. A summary request
  // that reuses the chat request's prefix (same model) has its own tests (shared-prefix.test.ts).
  summaryModel: "summary-model",
};
export const WINDOW = 4000;

/**
 * The engine with its settings bound the way the chat layer binds them: one snapshot
 * of the test's current settings per call.
 */
export function setup(patch: Partial<CompressionSettings> = {}, window = WINDOW) {
  const settings = new MutableSettings({ ...TEST_SETTINGS, ...patch });
  const summarizer = new FakeSummarizer();
  const logger = new MemoryLogger();
  let id = 0;
  const engine = new AutoCompressionManager({
    summarizer,
    tokens: counter,
    models: { contextWindow: (model, overrides) => overrides?.[model] ?? window },
    logger,
    newId: () => `c${++id}`,
    now: () => new Date("2025-01-01T00:00:00Z"),
  });
  const manager = {
    process: (transcript: Transcript, options?: ProcessOptions) => engine.process(transcript, settings.snapshot(), options),
    compactNow: (transcript: Transcript, options?: CompactNowOptions) => engine.compactNow(transcript, settings.snapshot(), options),
    applyProvided: (transcript: Transcript, input: ApplyProvidedInput, snapshot: CompressionSettings = settings.snapshot()) =>
      engine.applyProvided(transcript, input, snapshot),
    measure: (transcript: Transcript) => engine.measure(transcript, settings.snapshot()),
    buildRequest: (transcript: Transcript, snapshot: CompressionSettings = settings.snapshot()) => engine.buildRequest(transcript, snapshot),
    budget: (transcript: Transcript) => engine.budget(transcript, settings.snapshot()),
    planRewind: engine.planRewind.bind(engine),
  };
  return { manager, engine, settings, summarizer, logger };
}

/** Usage as a server that counts exactly like `counter` would report it: calibrates the factor to 1. */
export function exactUsage(requestTokens: number) {
  return { promptTokens: requestTokens, completionTokens: 10, requestTokens };
}

/** Every seq that the transcript shows directly or through a compaction. */
export function coverage(transcript: Transcript): Map<number, number> {
  const counts = new Map<number, number>();
  for (const c of transcript.compactions) for (let s = c.fromSeq; s <= c.toSeq; s++) counts.set(s, (counts.get(s) ?? 0) + 1);
  return counts;
}

export function compaction(id: string, fromSeq: number, toSeq: number, extra: Partial<CompactionRecord> = {}): CompactionRecord {
  // Tests set kind and its fields together; the cast keeps the helper one line per case.
  return {
    id, level: 1, kind: "summary", trigger: "auto", strategy: "ai_summary", fromSeq, toSeq, summary: `summary ${id}`,
    summaryTokens: 3, coveredMessageCount: 1, coveredTokens: 100, childIds: [], keptSeqs: [], background: false, durationMs: 0,
    messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0, createdAt: new Date(0), ...extra,
  } as CompactionRecord;
}

/** The API's rule: every tool message directly follows the assistant call that asked for it. */
export function assertValidToolPairs(messages: ChatMessage[]) {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "assistant" && message.tool_calls?.length) {
      const ids = message.tool_calls.map((c) => c.id);
      const results = [];
      for (let j = i + 1; j < messages.length && messages[j]!.role === "tool"; j++) results.push(messages[j] as { tool_call_id: string });
      expect(results.map((r) => r.tool_call_id).sort()).toEqual([...ids].sort());
    }
    if (message.role === "tool") {
      let j = i - 1;
      while (j >= 0 && messages[j]!.role === "tool") j--;
      const call = messages[j];
      expect(call?.role).toBe("assistant");
      expect((call as { tool_calls?: { id: string }[] }).tool_calls?.map((c) => c.id)).toContain(message.tool_call_id);
    }
  }
}


/** The record as a summary (fails the test when it is a truncation). */
export function summaryRecord(record: CompactionRecord | undefined): SummaryCompaction {
  if (record?.kind !== "summary") throw new Error(`expected a summary record, got ${record?.kind ?? "none"}`);
  return record;
}
