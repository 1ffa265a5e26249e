import { applyCompaction } from "./apply";
import { ChangeBuilder } from "./change";
import { reconcileFacts } from "./facts";
import { factsOfCompactions, factsOfMessages, finalizeOutput } from "./finalize";
import { planMerge, type MergePlan } from "./levels";
import { contextEntryCount, contextWindowFor, hardLimitFor, measureTranscript } from "./measure";
import { formatCount, renderedCompactionTokens } from "./render";
import { buildRequest, requestTokens } from "./request";
import { planRewind } from "./rewind";
import { providedRange, selectRange, summarizable, type Selection } from "./selection";
import { DEFAULT_SETTINGS, type CompressionSettings } from "./settings";
import { STRATEGY_REGISTRY } from "./strategies";
import type { StrategyOutput } from "./strategies/types";
import { SummaryFailure } from "./summaryCall";
import { planTruncation, type TruncationDraft } from "./truncation";
import { decideTrigger, summaryInputBudget, type TriggerDecision } from "./triggers";
import type {
  ApplyProvidedInput,
  AttemptRecord,
  BuiltRequest,
  CompactionProposal,
  CompactionRecord,
  CompactionTrigger,
  CompactNowOptions,
  CompressionChange,
  CompressionLogger,
  ContextBreakdown,
  ModelCatalog,
  ProcessOptions,
  RewindCompaction,
  RewindPlan,
  SettingsReader,
  StrategyName,
  Summarizer,
  TokenCounter,
  Transcript,
} from "./types";

export type AutoCompressionManagerDeps = {
  settings: SettingsReader;
  summarizer: Summarizer;
  tokens: TokenCounter;
  models: ModelCatalog;
  logger: CompressionLogger;
  newId?: () => string;
  now?: () => Date;
};

/** Automatic rounds per call: one usually suffices; a few let a lagging window catch up. */
const MAX_ROUNDS = 4;
/** Merges per call; each one shrinks the context, so this only guards against a bug looping. */
const MAX_MERGES = 16;

type RunContext = {
  onSummarizing?: ProcessOptions["onSummarizing"];
  settings: CompressionSettings;
  trigger: CompactionTrigger;
  strategy: StrategyName;
  background: boolean;
  signal?: AbortSignal;
  instructions?: string;
};

type Summarized =
  | { ok: true; output: StrategyOutput; durationMs: number }
  | { ok: false; reason: string; error?: string; model?: string; durationMs: number };

function failureOf(error: unknown): { reason: string; error?: string } {
  if (error instanceof SummaryFailure) return { reason: error.reason, error: error.detail ?? error.reason };
  const message = error instanceof Error ? error.message : String(error);
  return { reason: `compression failed unexpectedly: ${message}`, error: error instanceof Error ? (error.stack ?? message) : message };
}

/**
 * Seed 003's AutoCompressionManager. Decides whether and what to compress, has the
 * summary written, and returns the change for the conversation layer to store; it
 * never writes anything itself. Settings are read at the start of every async call
 * (REQ-3.5); model failures become failed attempts, never exceptions.
 */
export class AutoCompressionManager {
  private readonly deps: Required<AutoCompressionManagerDeps>;
  /** The latest settings read, for the synchronous calls made without settings. */
  private lastSettings: CompressionSettings = DEFAULT_SETTINGS;

  constructor(deps: AutoCompressionManagerDeps) {
    this.deps = {
      newId: () => globalThis.crypto.randomUUID(),
      now: () => new Date(),
      ...deps,
    };
  }

  /** Context usage of the transcript; without settings, the latest ones read are used. */
  measure(transcript: Transcript, settings: CompressionSettings = this.lastSettings): ContextBreakdown {
    return measureTranscript(transcript, settings, this.deps);
  }

  /** The request for the next model call; guaranteed under the hard limit. */
  buildRequest(transcript: Transcript, settings: CompressionSettings): BuiltRequest {
    return buildRequest(transcript, settings, this.deps, this.deps.logger);
  }

  planRewind(allCompactions: RewindCompaction[], fromSeq: number): RewindPlan {
    return planRewind(allCompactions, fromSeq);
  }

  async process(transcript: Transcript, options: ProcessOptions = {}): Promise<CompressionChange> {
    const settings = await this.readSettings();
    const background = options.background ?? false;
    const change = new ChangeBuilder(transcript, this.deps.logger);
    const context: RunContext = {
      settings,
      trigger: "auto",
      strategy: settings.strategy,
      background,
      signal: options.signal,
      onSummarizing: options.onSummarizing,
    };
    try {
      if (settings.enabled) await this.autoCompress(change, context);
      else if (!background) this.noteDisabled(change, context);
    } catch (error) {
      // Only a bug gets here; the turn must still go on, so report it and keep what was done.
      this.deps.logger.error({ conversationId: transcript.conversationId, error: failureOf(error).error }, "automatic compression crashed");
    }
    // The hard limit holds even when automatic compression is disabled or failed:
    // no request may ever exceed the context window (REQ-3.4, §4.2).
    if (!background) this.enforceHardLimit(change, settings);
    return change.result();
  }

  async compactNow(
    transcript: Transcript,
    options: CompactNowOptions = {},
  ): Promise<CompressionChange & { proposal?: CompactionProposal }> {
    const settings = await this.readSettings();
    const change = new ChangeBuilder(transcript, this.deps.logger);
    const context: RunContext = {
      settings,
      trigger: "manual",
      strategy: options.strategy ?? settings.strategy,
      background: false,
      signal: options.signal,
      instructions: options.instructions?.trim() || undefined,
    };
    const selection = selectRange(transcript, {
      keep: settings.keepRecentCount,
      protectLastUser: false,
      maxInputTokens: this.maxInputTokens(transcript, settings),
    });
    if (!selection) {
      change.attempt(this.skipped(change.transcript, context, `nothing to compress: only the newest ${settings.keepRecentCount} messages (and pinned ones) are active`));
      return change.result();
    }
    const summarized = await this.summarize(change.transcript, selection, context);
    if (options.preview && summarized.ok) {
      const proposal: CompactionProposal = {
        summary: summarized.output.summary,
        sections: summarized.output.sections,
        fromSeq: selection.fromSeq,
        toSeq: selection.toSeq,
        strategy: context.strategy,
        summaryModel: summarized.output.model,
      };
      change.attempt(
        this.skipped(change.transcript, context, `preview only: summary of messages ${selection.fromSeq}–${selection.toSeq} proposed, not applied`, summarized.durationMs, summarized.output.model),
      );
      return { ...change.result(), proposal };
    }
    const applied = this.applySummary(change, selection, summarized, context, "manual compaction requested");
    if (applied) await this.mergeLevels(change, context);
    return change.result();
  }

  /**
   * A compaction from text written elsewhere: the chat model's compress_context call
   * or a user-edited preview. Synchronous, so it uses the settings passed or the
   * latest ones read.
   */
  applyProvided(transcript: Transcript, input: ApplyProvidedInput, settings: CompressionSettings = this.lastSettings): CompressionChange {
    const change = new ChangeBuilder(transcript, this.deps.logger);
    const strategy = input.strategy ?? "model_provided";
    const context = { trigger: input.trigger, strategy, background: false } as const;
    const started = this.clock();
    const base = { ...context, messagesBefore: contextEntryCount(transcript), tokensBefore: this.measure(transcript, settings).totalTokens };
    const range = providedRange(transcript, settings.keepRecentCount, input.fromSeq, input.toSeq);
    if (!input.summary.trim()) {
      change.attempt({ ...base, outcome: "failed", reason: "provided summary is empty", durationMs: 0 });
      return change.result();
    }
    if (!range) {
      change.attempt({ ...base, outcome: "skipped", reason: "nothing to compress in the requested range", durationMs: 0 });
      return change.result();
    }
    const messages = summarizable(transcript).filter((m) => m.seq >= range.fromSeq && m.seq <= range.toSeq);
    const children = transcript.compactions.filter((c) => c.fromSeq >= range.fromSeq && c.toSeq <= range.toSeq);
    // A model's own summary gets the same fact guarantee as ours; a user's edit is taken as written.
    const summary =
      input.trigger === "tool" && settings.preserveFactLines
        ? reconcileFacts(input.summary, [...factsOfMessages(messages), ...factsOfCompactions(children)])
        : input.summary.trim();
    const replacedTokens =
      messages.reduce((sum, m) => sum + m.tokens, 0) + children.reduce((sum, c) => sum + renderedCompactionTokens(c, this.deps.tokens), 0);
    const record = this.record(transcript, settings, {
      level: children.length > 0 ? Math.max(...children.map((c) => c.level)) + 1 : 1,
      kind: "summary",
      trigger: input.trigger,
      strategy,
      fromSeq: range.fromSeq,
      toSeq: range.toSeq,
      summary,
      sections: input.sections,
      summaryModel: input.trigger === "tool" ? transcript.model : undefined,
      instructions: input.instructions?.trim() || undefined,
      childIds: children.map((c) => c.id),
      coveredMessageCount: messages.length + children.reduce((sum, c) => sum + c.coveredMessageCount, 0),
      coveredTokens: messages.reduce((sum, m) => sum + m.tokens, 0) + children.reduce((sum, c) => sum + c.coveredTokens, 0),
      background: false,
      durationMs: this.clock() - started,
    });
    const recordTokens = renderedCompactionTokens(record, this.deps.tokens);
    if (recordTokens >= replacedTokens) {
      change.attempt({
        ...base,
        outcome: "failed",
        reason: `provided summary (${formatCount(recordTokens)} tokens) is not shorter than the ${formatCount(replacedTokens)} tokens it replaces`,
        durationMs: record.durationMs,
      });
      return change.result();
    }
    change.apply(record);
    change.attempt({
      ...base,
      outcome: "applied",
      reason: `${input.trigger === "tool" ? "the chat model called compress_context" : "a provided summary was applied"} for messages ${range.fromSeq}–${range.toSeq}`,
      compactionId: record.id,
      messagesAfter: record.messagesAfter,
      tokensAfter: record.tokensAfter,
      durationMs: record.durationMs,
    });
    return change.result();
  }

  // ---- automatic path ----

  private async autoCompress(change: ChangeBuilder, context: RunContext): Promise<void> {
    let applied = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const decision = this.decide(change.transcript, context);
      if (!decision) break;
      const selection = selectRange(change.transcript, decision.rules);
      if (!selection) {
        // Later rounds stop quietly: the first round already did what could be done.
        if (round === 0) {
          change.attempt(this.skipped(change.transcript, context, `${decision.reason}, but nothing can be compressed: only recent, pinned or protected messages are active`));
        }
        break;
      }
      context.onSummarizing?.({ fromSeq: selection.fromSeq, toSeq: selection.toSeq, messageCount: selection.messages.length });
      const summarized = await this.summarize(change.transcript, selection, context, decision.maxChars);
      if (!this.applySummary(change, selection, summarized, context, decision.reason)) break;
      applied++;
    }
    if (applied > 0) await this.mergeLevels(change, context);
  }

  private decide(transcript: Transcript, context: RunContext): TriggerDecision | null {
    const breakdown = this.measure(transcript, context.settings);
    return decideTrigger(transcript, context.settings, breakdown, context.background, this.maxInputTokens(transcript, context.settings));
  }

  private noteDisabled(change: ChangeBuilder, context: RunContext): void {
    const decision = this.decide(change.transcript, context);
    if (decision) change.attempt(this.skipped(change.transcript, context, `automatic compression is disabled (${decision.reason})`));
  }

  // ---- level 1 ----

  private async summarize(transcript: Transcript, selection: Selection, context: RunContext, maxChars?: number): Promise<Summarized> {
    const started = this.clock();
    const model = this.summaryModel(transcript, context.settings);
    const summaries = transcript.compactions.filter((c) => c.kind === "summary" && c.toSeq < selection.fromSeq);
    const precedingSummary = summaries.slice(-1);
    try {
      const output = await STRATEGY_REGISTRY[context.strategy].summarize({
        summarizer: this.deps.summarizer,
        tokens: this.deps.tokens,
        settings: context.settings,
        model,
        instructions: context.instructions,
        maxChars,
        signal: context.signal,
        messages: selection.messages,
        fromSeq: selection.fromSeq,
        toSeq: selection.toSeq,
        context: precedingSummary,
      });
      const preserve = context.settings.preserveFactLines;
      const finalized = finalizeOutput(
        output,
        preserve ? factsOfMessages(selection.messages) : [],
        preserve ? factsOfCompactions(precedingSummary) : [],
        maxChars,
      );
      return { ok: true, output: finalized, durationMs: this.clock() - started };
    } catch (error) {
      const strategyUsesModel = context.strategy !== "simple_extract";
      return { ok: false, ...failureOf(error), model: strategyUsesModel ? model : undefined, durationMs: this.clock() - started };
    }
  }

  /** Turns a summary into a level-1 compaction, or records why it cannot be used. */
  private applySummary(change: ChangeBuilder, selection: Selection, summarized: Summarized, context: RunContext, reason: string): boolean {
    const transcript = change.transcript;
    const base = this.attemptBase(transcript, context);
    if (!summarized.ok) {
      change.attempt({ ...base, outcome: "failed", reason: summarized.reason, error: summarized.error, model: summarized.model, durationMs: summarized.durationMs });
      return false;
    }
    const { output } = summarized;
    const record = this.record(transcript, context.settings, {
      level: 1,
      kind: "summary",
      trigger: context.trigger,
      strategy: context.strategy,
      fromSeq: selection.fromSeq,
      toSeq: selection.toSeq,
      summary: output.summary,
      sections: output.sections,
      summaryModel: output.model,
      instructions: context.instructions,
      childIds: [],
      coveredMessageCount: selection.messages.length,
      coveredTokens: selection.tokens,
      background: context.background,
      durationMs: summarized.durationMs,
    });
    const recordTokens = renderedCompactionTokens(record, this.deps.tokens);
    if (recordTokens >= selection.tokens) {
      change.attempt({
        ...base,
        outcome: "failed",
        reason: `summary (${formatCount(recordTokens)} tokens) is not shorter than the ${formatCount(selection.tokens)} tokens it replaces`,
        model: output.model,
        durationMs: summarized.durationMs,
      });
      return false;
    }
    change.apply(record);
    change.attempt(
      {
        ...base,
        outcome: "applied",
        reason: `${reason}: summarized messages ${selection.fromSeq}–${selection.toSeq}`,
        model: output.model,
        compactionId: record.id,
        messagesAfter: record.messagesAfter,
        tokensAfter: record.tokensAfter,
        durationMs: summarized.durationMs,
      },
      { level: 1, fromSeq: record.fromSeq, toSeq: record.toSeq, coveredTokens: record.coveredTokens, summaryTokens: record.summaryTokens },
    );
    return true;
  }

  // ---- levels >= 2 ----

  private async mergeLevels(change: ChangeBuilder, context: RunContext): Promise<void> {
    for (let merges = 0; merges < MAX_MERGES; merges++) {
      const plan = planMerge(change.transcript, context.settings);
      if (!plan || !(await this.merge(change, plan, context))) return;
    }
  }

  private async merge(change: ChangeBuilder, plan: MergePlan, context: RunContext): Promise<boolean> {
    const transcript = change.transcript;
    const base = this.attemptBase(transcript, context);
    const model = this.summaryModel(transcript, context.settings);
    const started = this.clock();
    let output: StrategyOutput;
    try {
      const merged = await STRATEGY_REGISTRY[context.strategy].merge({
        summarizer: this.deps.summarizer,
        tokens: this.deps.tokens,
        settings: context.settings,
        model,
        instructions: context.instructions,
        signal: context.signal,
        children: plan.children,
        level: plan.level,
      });
      output = finalizeOutput(merged, context.settings.preserveFactLines ? factsOfCompactions(plan.children) : [], []);
    } catch (error) {
      change.attempt({ ...base, outcome: "failed", ...failureOf(error), model, durationMs: this.clock() - started }, { level: plan.level });
      return false;
    }
    const first = plan.children[0]!;
    const last = plan.children[plan.children.length - 1]!;
    const record = this.record(transcript, context.settings, {
      level: plan.level,
      kind: "summary",
      trigger: context.trigger,
      strategy: context.strategy,
      fromSeq: first.fromSeq,
      toSeq: last.toSeq,
      summary: output.summary,
      sections: output.sections,
      summaryModel: output.model,
      instructions: context.instructions,
      childIds: plan.children.map((c) => c.id),
      coveredMessageCount: plan.children.reduce((sum, c) => sum + c.coveredMessageCount, 0),
      coveredTokens: plan.children.reduce((sum, c) => sum + c.coveredTokens, 0),
      background: context.background,
      durationMs: this.clock() - started,
    });
    const replaced = plan.children.reduce((sum, c) => sum + renderedCompactionTokens(c, this.deps.tokens), 0);
    const recordTokens = renderedCompactionTokens(record, this.deps.tokens);
    if (recordTokens >= replaced) {
      change.attempt(
        { ...base, outcome: "failed", reason: `merged summary (${formatCount(recordTokens)} tokens) is not shorter than the ${formatCount(replaced)} tokens of the summaries it merges`, model: output.model, durationMs: record.durationMs },
        { level: plan.level },
      );
      return false;
    }
    change.apply(record);
    change.attempt(
      { ...base, outcome: "applied", reason: plan.reason, model: output.model, compactionId: record.id, messagesAfter: record.messagesAfter, tokensAfter: record.tokensAfter, durationMs: record.durationMs },
      { level: plan.level, childIds: record.childIds, fromSeq: record.fromSeq, toSeq: record.toSeq },
    );
    return true;
  }

  // ---- hard limit ----

  private enforceHardLimit(change: ChangeBuilder, settings: CompressionSettings): void {
    const transcript = change.transcript;
    const contextWindow = contextWindowFor(transcript.model, settings, this.deps.models);
    const hardLimit = hardLimitFor(contextWindow, settings);
    const before = requestTokens(transcript, settings, this.deps);
    if (before <= hardLimit) return;
    const reason = `request of ${formatCount(before)} tokens exceeds the hard limit of ${formatCount(hardLimit)} (window ${formatCount(contextWindow)} minus reserve ${formatCount(settings.hardLimitReserve)})`;
    const context: RunContext = { settings, trigger: "hard_limit", strategy: settings.strategy, background: false };
    const toRecord = (draft: TruncationDraft, from: Transcript) => this.truncationRecord(draft, from, settings);
    const plan = planTruncation(transcript, settings.keepRecentCount, (candidate) => requestTokens(candidate, settings, this.deps) <= hardLimit, (draft) => toRecord(draft, transcript));
    if (!plan) {
      change.attempt({ ...this.attemptBase(transcript, context), strategy: "truncation", outcome: "skipped", reason: `${reason}; nothing can be dropped, the request will be cut instead`, durationMs: 0 });
      return;
    }
    for (const draft of plan.drafts) {
      const base = { ...this.attemptBase(change.transcript, context), strategy: "truncation" as const };
      const record = toRecord(draft, change.transcript);
      change.apply(record);
      change.attempt(
        { ...base, outcome: "applied", reason: `${reason}: dropped messages ${record.fromSeq}–${record.toSeq}`, compactionId: record.id, messagesAfter: record.messagesAfter, tokensAfter: record.tokensAfter, durationMs: 0 },
        { level: record.level, childIds: record.childIds, coveredMessageCount: record.coveredMessageCount },
      );
    }
  }

  private truncationRecord(draft: TruncationDraft, from: Transcript, settings: CompressionSettings): CompactionRecord {
    return this.record(from, settings, {
      ...draft,
      kind: "truncation",
      trigger: "hard_limit",
      strategy: "truncation",
      background: false,
      durationMs: 0,
    });
  }

  // ---- shared helpers ----

  private async readSettings(): Promise<CompressionSettings> {
    try {
      this.lastSettings = await this.deps.settings.read();
    } catch (error) {
      // A settings outage must not stop the conversation; the last known values still apply.
      this.deps.logger.error({ error: failureOf(error).error }, "compression settings could not be read; using the last known values");
    }
    return this.lastSettings;
  }

  private clock(): number {
    return this.deps.now().getTime();
  }

  private summaryModel(transcript: Transcript, settings: CompressionSettings): string {
    return settings.summaryModel.trim() || transcript.model;
  }

  private maxInputTokens(transcript: Transcript, settings: CompressionSettings): number {
    return summaryInputBudget(contextWindowFor(this.summaryModel(transcript, settings), settings, this.deps.models), settings);
  }

  /** Completes a record with id, size and the context figures around it. */
  private record(
    transcript: Transcript,
    settings: CompressionSettings,
    fields: Omit<CompactionRecord, "id" | "summaryTokens" | "messagesBefore" | "messagesAfter" | "tokensBefore" | "tokensAfter" | "createdAt">,
  ): CompactionRecord {
    const draft: CompactionRecord = {
      ...fields,
      id: this.deps.newId(),
      summaryTokens: this.deps.tokens.count(fields.summary),
      messagesBefore: contextEntryCount(transcript),
      messagesAfter: 0,
      tokensBefore: this.measure(transcript, settings).totalTokens,
      tokensAfter: 0,
      createdAt: this.deps.now(),
    };
    if (draft.sections === undefined) delete draft.sections;
    if (draft.summaryModel === undefined) delete draft.summaryModel;
    if (draft.instructions === undefined) delete draft.instructions;
    const after = applyCompaction(transcript, draft);
    return { ...draft, messagesAfter: contextEntryCount(after), tokensAfter: this.measure(after, settings).totalTokens };
  }

  private attemptBase(transcript: Transcript, context: Pick<RunContext, "trigger" | "strategy" | "background" | "settings">) {
    return {
      trigger: context.trigger,
      strategy: context.strategy,
      background: context.background,
      messagesBefore: contextEntryCount(transcript),
      tokensBefore: this.measure(transcript, context.settings).totalTokens,
    };
  }

  private skipped(transcript: Transcript, context: RunContext, reason: string, durationMs = 0, model?: string): AttemptRecord {
    return { ...this.attemptBase(transcript, context), outcome: "skipped", reason, durationMs, ...(model ? { model } : {}) };
  }
}
