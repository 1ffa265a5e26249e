import { applyCompaction } from "./apply";
import { type ContextBudget } from "./budget";
import { ChangeBuilder } from "./change";
import { boundText } from "./condense";
import { reconcileFacts } from "./facts";
import { factsOfCompactions, factsOfMessages, finalizeOutput } from "./finalize";
import { planFold, planMerge, summaryRuns, type MergePlan } from "./levels";
import { budgetFor, contextEntryCount, contextWindowFor, measureTranscript } from "./measure";
import { formatCount, renderedCompactionTokens } from "./render";
import { buildRequest, requestTokens } from "./request";
import { planRewind } from "./rewind";
import { heldSeqs, providedRange, selectRange, summarizable, type Selection } from "./selection";
import type { CompressionSettings } from "./settings";
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
  StrategyName,
  Summarizer,
  TokenCounter,
  Transcript,
} from "./types";

export type AutoCompressionManagerDeps = {
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
/** With carryDetails, the model writes at most this share of the bound; the rest is room for what it left out. */
const MODEL_SHARE_OF_BOUND = 0.8;

type RunContext = {
  settings: CompressionSettings;
  budget: ContextBudget;
  trigger: CompactionTrigger;
  strategy: StrategyName;
  background: boolean;
  /** The caller's signal and the pass deadline together. */
  signal?: AbortSignal;
  instructions?: string;
  onSummarizing?: ProcessOptions["onSummarizing"];
};

type Summarized =
  | { ok: true; output: StrategyOutput; durationMs: number }
  | { ok: false; reason: string; error?: string; model?: string; durationMs: number };

/** A record before id, size and the context figures around it are filled in. */
type RecordFields = Omit<
  CompactionRecord,
  "id" | "summaryTokens" | "keptSeqs" | "messagesBefore" | "messagesAfter" | "tokensBefore" | "tokensAfter" | "createdAt"
>;

function failureOf(error: unknown): { reason: string; error?: string } {
  if (error instanceof SummaryFailure) return { reason: error.reason, error: error.detail ?? error.reason };
  const message = error instanceof Error ? error.message : String(error);
  return { reason: `compression failed unexpectedly: ${message}`, error: error instanceof Error ? (error.stack ?? message) : message };
}

const withNotes = (reason: string, notes?: string[]) => (notes?.length ? `${reason} (${notes.join("; ")})` : reason);

/**
 * The AutoCompressionManager. Given the active transcript and one snapshot of the
 * settings, it decides whether and what to compress, has the summary written, and
 * returns the change for the conversation layer to store; it writes nothing and holds
 * no per-conversation state. Model failures become failed attempts, never exceptions.
 * docs/design.md explains the model.
 */
export class AutoCompressionManager {
  private readonly deps: Required<AutoCompressionManagerDeps>;

  constructor(deps: AutoCompressionManagerDeps) {
    this.deps = {
      newId: () => globalThis.crypto.randomUUID(),
      now: () => new Date(),
      ...deps,
    };
  }

  /** The figures compression works with for this conversation's model. */
  budget(transcript: Transcript, settings: CompressionSettings): ContextBudget {
    return budgetFor(transcript, settings, this.deps.models);
  }

  measure(transcript: Transcript, settings: CompressionSettings): ContextBreakdown {
    return measureTranscript(transcript, settings, this.deps);
  }

  /** The request for the next model call; guaranteed under the hard limit. */
  buildRequest(transcript: Transcript, settings: CompressionSettings): BuiltRequest {
    return buildRequest(transcript, settings, this.deps, this.deps.logger);
  }

  planRewind(allCompactions: RewindCompaction[], fromSeq: number): RewindPlan {
    return planRewind(allCompactions, fromSeq);
  }

  /**
   * The automatic check. Before a model call (not `background`) the result is
   * guaranteed to fit the hard limit: summaries first, truncation only when
   * summarizing failed or the protected part alone does not fit. After a reply
   * (`background`) it only compacts pre-emptively and never truncates.
   */
  async process(transcript: Transcript, settings: CompressionSettings, options: ProcessOptions = {}): Promise<CompressionChange> {
    const background = options.background ?? false;
    const change = new ChangeBuilder(transcript);
    const pass = passSignal(settings.summaryTimeoutMs, options.signal);
    const context: RunContext = {
      settings,
      budget: this.budget(transcript, settings),
      trigger: "auto",
      strategy: settings.strategy,
      background,
      signal: pass.signal,
      ...(options.onSummarizing ? { onSummarizing: options.onSummarizing } : {}),
    };
    try {
      if (settings.enabled) await this.autoCompress(change, context);
      else if (!background) this.noteDisabled(change, context);
    } catch (error) {
      // Only a bug gets here; the turn must still go on, so report it and keep what was done.
      this.deps.logger.error({ conversationId: transcript.conversationId, error: failureOf(error).error }, "automatic compression crashed");
    } finally {
      pass.dispose();
    }
    // A stopped turn makes no model call, so there is nothing to fit (and nothing to cut).
    if (options.signal?.aborted) return change.result();
    // The hard limit holds even when automatic compression is disabled or failed.
    if (!background) this.enforceHardLimit(change, context);
    return change.result();
  }

  async compactNow(
    transcript: Transcript,
    settings: CompressionSettings,
    options: CompactNowOptions = {},
  ): Promise<CompressionChange & { proposal?: CompactionProposal }> {
    const change = new ChangeBuilder(transcript);
    const pass = passSignal(settings.summaryTimeoutMs, options.signal);
    const context: RunContext = {
      settings,
      budget: this.budget(transcript, settings),
      trigger: "manual",
      strategy: options.strategy ?? settings.strategy,
      background: false,
      signal: pass.signal,
      ...(options.instructions?.trim() ? { instructions: options.instructions.trim() } : {}),
    };
    try {
      const selection = selectRange(transcript, {
        keep: settings.keepRecentCount,
        protectLastUser: false,
        maxInputTokens: this.maxInputTokens(transcript, context),
      });
      if (!selection) {
        change.attempt(this.skipped(transcript, context, `nothing to compress: only the newest ${settings.keepRecentCount} messages (and pinned ones) are active`));
        return change.result();
      }
      const fold = options.preview ? [] : this.foldFor(transcript, selection, context);
      const summarized = await this.summarize(transcript, selection, fold, context);
      if (options.preview && summarized.ok) {
        const { output } = summarized;
        const proposal: CompactionProposal = {
          summary: output.summary,
          fromSeq: selection.fromSeq,
          toSeq: selection.toSeq,
          strategy: context.strategy,
          ...(output.sections ? { sections: output.sections } : {}),
          ...(output.model ? { summaryModel: output.model } : {}),
        };
        change.attempt(
          this.skipped(
            transcript,
            context,
            `preview only: summary of messages ${selection.fromSeq}–${selection.toSeq} proposed, not applied`,
            summarized.durationMs,
            output.model,
          ),
        );
        return { ...change.result(), proposal };
      }
      if (this.applySummary(change, selection, fold, summarized, context, "manual compaction requested")) await this.mergeLevels(change, context);
      return change.result();
    } finally {
      pass.dispose();
    }
  }

  /**
   * A compaction from text written elsewhere: the chat model's compress_context call
   * or a user-edited preview.
   */
  applyProvided(transcript: Transcript, input: ApplyProvidedInput, settings: CompressionSettings): CompressionChange {
    const change = new ChangeBuilder(transcript);
    const strategy = input.strategy ?? "model_provided";
    const context = { settings, budget: this.budget(transcript, settings), trigger: input.trigger, strategy, background: false } as const;
    const started = this.clock();
    const base = this.attemptBase(transcript, context);
    if (!input.summary.trim()) {
      change.attempt({ ...base, outcome: "failed", reason: "provided summary is empty", durationMs: 0 });
      return change.result();
    }
    const range = providedRange(transcript, settings.keepRecentCount, input.fromSeq, input.toSeq, input.trigger === "tool");
    if (!range) {
      change.attempt({ ...base, outcome: "skipped", reason: "nothing to compress in the requested range", durationMs: 0 });
      return change.result();
    }
    const messages = summarizable(transcript).filter((m) => m.seq >= range.fromSeq && m.seq <= range.toSeq);
    const children = transcript.compactions.filter((c) => c.fromSeq >= range.fromSeq && c.toSeq <= range.toSeq);
    // A model's own summary gets the same fact guarantee and bound as ours; a user's edit is taken as written.
    let summary = input.summary.trim();
    const notes: string[] = [];
    if (input.trigger === "tool") {
      if (settings.preserveFactLines) summary = reconcileFacts(summary, [...factsOfMessages(messages), ...factsOfCompactions(children)]);
      const bounded = boundText(summary, context.budget.summaryMaxTokens, this.deps.tokens, settings.preserveFactLines);
      if (bounded.shortened) notes.push(`shortened to ${formatCount(context.budget.summaryMaxTokens)} tokens`);
      summary = bounded.text;
    }
    const replacedTokens =
      messages.reduce((sum, m) => sum + m.tokens, 0) + children.reduce((sum, c) => sum + renderedCompactionTokens(c, this.deps.tokens), 0);
    const applied = input.trigger === "tool" ? "the chat model called compress_context" : "a provided summary was applied";
    this.commit(change, context, {
      fields: {
        level: children.length > 0 ? Math.max(...children.map((c) => c.level)) + 1 : 1,
        kind: "summary",
        trigger: input.trigger,
        strategy,
        fromSeq: range.fromSeq,
        toSeq: range.toSeq,
        summary,
        ...(input.sections && notes.length === 0 ? { sections: input.sections } : {}),
        ...(input.trigger === "tool" ? { summaryModel: transcript.model } : {}),
        ...(input.instructions?.trim() ? { instructions: input.instructions.trim() } : {}),
        childIds: children.map((c) => c.id),
        coveredMessageCount: messages.length + children.reduce((sum, c) => sum + c.coveredMessageCount, 0),
        coveredTokens: messages.reduce((sum, m) => sum + m.tokens, 0) + children.reduce((sum, c) => sum + c.coveredTokens, 0),
        background: false,
        durationMs: this.clock() - started,
      },
      replacedTokens,
      what: "provided summary",
      applied: withNotes(`${applied} for messages ${range.fromSeq}–${range.toSeq}`, notes),
    });
    return change.result();
  }

  // ---- automatic path ----

  private async autoCompress(change: ChangeBuilder, context: RunContext): Promise<void> {
    let retried = false;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (context.signal?.aborted) return;
      const decision = this.decide(change.transcript, context);
      if (!decision) return;
      let selection = selectRange(change.transcript, decision.rules);
      // Over the hard limit the alternative to summarizing the kept tail is cutting it.
      if (!selection && decision.overHardLimit) selection = selectRange(change.transcript, { ...decision.rules, keep: 0 });
      if (!selection) {
        if (decision.overHardLimit && (await this.shortenSummaries(change, context))) continue;
        if (round === 0) {
          change.attempt(this.skipped(change.transcript, context, `${decision.reason}, but nothing can be compressed: only recent, pinned or protected messages are active`));
        }
        return;
      }
      context.onSummarizing?.({ fromSeq: selection.fromSeq, toSeq: selection.toSeq, messageCount: selection.messages.length });
      const fold = this.foldFor(change.transcript, selection, context);
      const summarized = await this.summarize(change.transcript, selection, fold, context, decision.maxChars);
      if (!this.applySummary(change, selection, fold, summarized, context, decision.reason)) {
        // Over the hard limit the alternative is a cut: one more try is worth its wait.
        if (decision.overHardLimit && !retried) {
          retried = true;
          continue;
        }
        return;
      }
      await this.mergeLevels(change, context);
    }
  }

  private decide(transcript: Transcript, context: RunContext): TriggerDecision | null {
    return decideTrigger({
      transcript,
      settings: context.settings,
      budget: context.budget,
      breakdown: this.measure(transcript, context.settings),
      background: context.background,
      maxInputTokens: this.maxInputTokens(transcript, context),
      requestTokens: context.background ? 0 : requestTokens(transcript, context.settings, this.deps),
    });
  }

  private noteDisabled(change: ChangeBuilder, context: RunContext): void {
    const decision = this.decide(change.transcript, context);
    if (decision) change.attempt(this.skipped(change.transcript, context, `automatic compression is disabled (${decision.reason})`));
  }

  // ---- level 1 ----

  /** Level-1 summaries to fold into this one; only model strategies that write one summary of a range can. */
  private foldFor(transcript: Transcript, selection: Selection, context: RunContext): CompactionRecord[] {
    if (context.strategy !== "ai_summary" && context.strategy !== "structured") return [];
    return planFold(transcript, selection, context.budget, this.deps.tokens);
  }

  private async summarize(
    transcript: Transcript,
    selection: Selection,
    fold: CompactionRecord[],
    context: RunContext,
    maxChars?: number,
  ): Promise<Summarized> {
    const started = this.clock();
    const model = this.summaryModel(transcript, context.settings);
    const precedingSummary = transcript.compactions.filter((c) => c.kind === "summary" && c.toSeq < selection.fromSeq).slice(-1);
    try {
      const output = await STRATEGY_REGISTRY[context.strategy].summarize({
        ...this.strategyContext(context, model, maxChars),
        messages: selection.messages,
        fromSeq: selection.fromSeq,
        toSeq: selection.toSeq,
        context: precedingSummary,
        fold,
      });
      const preserve = context.settings.preserveFactLines;
      const finalized = finalizeOutput(
        output,
        preserve ? [...factsOfCompactions(fold), ...factsOfMessages(selection.messages)] : [],
        preserve && fold.length === 0 ? factsOfCompactions(precedingSummary) : [],
        this.bound(context, maxChars, [...fold.map((c) => c.summary), ...selection.messages.filter((m) => m.role !== "tool").map((m) => m.content)]),
      );
      return { ok: true, output: finalized, durationMs: this.clock() - started };
    } catch (error) {
      const strategyUsesModel = context.strategy !== "simple_extract";
      return { ok: false, ...failureOf(error), ...(strategyUsesModel ? { model } : {}), durationMs: this.clock() - started };
    }
  }

  /** Turns a summary into a compaction (level 1, or one above what it folds in), or records why it cannot be used. */
  private applySummary(
    change: ChangeBuilder,
    selection: Selection,
    fold: CompactionRecord[],
    summarized: Summarized,
    context: RunContext,
    reason: string,
  ): boolean {
    if (!summarized.ok) {
      const { ok: _ok, ...failure } = summarized;
      change.attempt({ ...this.attemptBase(change.transcript, context), outcome: "failed", ...failure });
      return false;
    }
    const { output } = summarized;
    const folded = fold.length > 0 ? `, folding in ${fold.length} level-1 summar${fold.length === 1 ? "y" : "ies"}` : "";
    return this.commit(change, context, {
      fields: {
        level: fold.length > 0 ? Math.max(...fold.map((c) => c.level)) + 1 : 1,
        kind: "summary",
        trigger: context.trigger,
        strategy: context.strategy,
        fromSeq: fold[0]?.fromSeq ?? selection.fromSeq,
        toSeq: selection.toSeq,
        summary: output.summary,
        ...(output.sections ? { sections: output.sections } : {}),
        ...(output.model ? { summaryModel: output.model } : {}),
        ...(context.instructions ? { instructions: context.instructions } : {}),
        childIds: fold.map((c) => c.id),
        coveredMessageCount: selection.messages.length + fold.reduce((sum, c) => sum + c.coveredMessageCount, 0),
        coveredTokens: selection.tokens + fold.reduce((sum, c) => sum + c.coveredTokens, 0),
        background: context.background,
        durationMs: summarized.durationMs,
      },
      replacedTokens: selection.tokens + fold.reduce((sum, c) => sum + renderedCompactionTokens(c, this.deps.tokens), 0),
      what: "summary",
      applied: withNotes(`${reason}: summarized messages ${selection.fromSeq}–${selection.toSeq}${folded}`, output.notes),
      ...(output.model ? { model: output.model } : {}),
    });
  }

  // ---- levels >= 2 ----

  /** Merges until the summary budgets hold again; true when anything was merged. */
  private async mergeLevels(change: ChangeBuilder, context: RunContext): Promise<boolean> {
    let merged = false;
    for (let merges = 0; merges < MAX_MERGES; merges++) {
      if (context.signal?.aborted) return merged;
      const plan = planMerge(change.transcript, context.budget, this.deps.tokens);
      if (!plan || !(await this.merge(change, plan, context))) return merged;
      merged = true;
    }
    return merged;
  }

  private async merge(change: ChangeBuilder, plan: MergePlan, context: RunContext): Promise<boolean> {
    const model = this.summaryModel(change.transcript, context.settings);
    const started = this.clock();
    let output: StrategyOutput;
    try {
      const merged = await STRATEGY_REGISTRY[context.strategy].merge({ ...this.strategyContext(context, model), children: plan.children, level: plan.level });
      output = finalizeOutput(
        merged,
        context.settings.preserveFactLines ? factsOfCompactions(plan.children) : [],
        [],
        this.bound(context, undefined, plan.children.map((c) => c.summary)),
      );
    } catch (error) {
      change.attempt({ ...this.attemptBase(change.transcript, context), outcome: "failed", ...failureOf(error), model, durationMs: this.clock() - started });
      return false;
    }
    const first = plan.children[0]!;
    const last = plan.children[plan.children.length - 1]!;
    return this.commit(change, context, {
      fields: {
        level: plan.level,
        kind: "summary",
        trigger: context.trigger,
        strategy: context.strategy,
        fromSeq: first.fromSeq,
        toSeq: last.toSeq,
        summary: output.summary,
        ...(output.sections ? { sections: output.sections } : {}),
        ...(output.model ? { summaryModel: output.model } : {}),
        ...(context.instructions ? { instructions: context.instructions } : {}),
        childIds: plan.children.map((c) => c.id),
        coveredMessageCount: plan.children.reduce((sum, c) => sum + c.coveredMessageCount, 0),
        coveredTokens: plan.children.reduce((sum, c) => sum + c.coveredTokens, 0),
        background: context.background,
        durationMs: this.clock() - started,
      },
      replacedTokens: plan.children.reduce((sum, c) => sum + renderedCompactionTokens(c, this.deps.tokens), 0),
      what: "merged summary",
      applied: withNotes(plan.reason, output.notes),
      ...(output.model ? { model: output.model } : {}),
    });
  }

  /**
   * Over the hard limit with no message left to summarize, the summaries themselves
   * are rewritten shorter — the largest run of them into one summary that fits —
   * before anything is cut.
   */
  private async shortenSummaries(change: ChangeBuilder, context: RunContext): Promise<boolean> {
    const transcript = change.transcript;
    const cost = (run: CompactionRecord[]) => run.reduce((sum, c) => sum + renderedCompactionTokens(c, this.deps.tokens), 0);
    const run = summaryRuns(transcript).sort((a, b) => cost(b) - cost(a))[0];
    if (!run) return false;
    const factor = this.measure(transcript, context.settings).calibration.factor;
    const over = requestTokens(transcript, context.settings, this.deps) - context.budget.hardLimit;
    const fits = Math.min(context.budget.levelBudgetTokens, cost(run) - Math.ceil(over / factor) - 32);
    if (fits < 32) return false;
    const plan: MergePlan = {
      level: Math.max(...run.map((c) => c.level)) + 1,
      children: run,
      reason: `the request is over the hard limit with nothing left to summarize: ${run.length} summar${run.length === 1 ? "y" : "ies"} rewritten to fit in ${formatCount(fits)} tokens`,
    };
    return this.merge(change, plan, { ...context, budget: { ...context.budget, summaryMaxTokens: fits } });
  }

  // ---- hard limit ----

  private enforceHardLimit(change: ChangeBuilder, context: RunContext): void {
    const transcript = change.transcript;
    const { settings, budget } = context;
    const request = (candidate: Transcript) => requestTokens(candidate, settings, this.deps);
    const before = request(transcript);
    if (before <= budget.hardLimit) return;
    const failed = change.attempts.some((a) => a.outcome === "failed");
    const why = !settings.enabled ? "automatic compression is disabled" : failed ? "summarizing failed" : "nothing more can be summarized";
    const reason = `request of ${formatCount(before)} tokens exceeds the hard limit of ${formatCount(budget.hardLimit)} (window ${formatCount(budget.contextWindow)} minus reserve ${formatCount(budget.reserve)}) and ${why}`;
    const hardContext: RunContext = { ...context, trigger: "hard_limit" };
    const plan = planTruncation({
      transcript,
      keepRecentCount: settings.keepRecentCount,
      requestTokens: request,
      hardLimit: budget.hardLimit,
      maxCondensedTokens: budget.levelBudgetTokens,
      tokens: this.deps.tokens,
      preserveFacts: settings.preserveFactLines,
      toRecord: (draft) => this.record(transcript, settings, this.truncationFields(draft)),
    });
    if (!plan) {
      change.attempt({ ...this.attemptBase(transcript, hardContext), strategy: "truncation", outcome: "skipped", reason: `${reason}; nothing can be dropped, the request will be cut instead`, durationMs: 0 });
      return;
    }
    for (const draft of plan.drafts) {
      const base = { ...this.attemptBase(change.transcript, hardContext), strategy: "truncation" as const };
      const record = this.record(change.transcript, settings, this.truncationFields(draft));
      change.apply(record);
      change.attempt({
        ...base,
        outcome: "applied",
        reason: `${reason}: messages ${record.fromSeq}–${record.toSeq} left the model's view${record.childIds.length ? ", what their summaries said condensed into the truncation note" : ""}`,
        compactionId: record.id,
        messagesAfter: record.messagesAfter,
        tokensAfter: record.tokensAfter,
        durationMs: 0,
      });
    }
  }

  private truncationFields(draft: TruncationDraft): RecordFields {
    return { ...draft, kind: "truncation", trigger: "hard_limit", strategy: "truncation", background: false, durationMs: 0 };
  }

  // ---- shared helpers ----

  /**
   * Builds the record, checks that it really is shorter than what it replaces (a
   * summary that is not would only make things worse) and applies it — or records
   * why not. True when applied.
   */
  private commit(
    change: ChangeBuilder,
    context: Pick<RunContext, "settings" | "trigger" | "background"> & { strategy: CompactionRecord["strategy"] },
    step: { fields: RecordFields; replacedTokens: number; what: string; applied: string; model?: string },
  ): boolean {
    const base = this.attemptBase(change.transcript, context);
    const record = this.record(change.transcript, context.settings, step.fields);
    const recordTokens = renderedCompactionTokens(record, this.deps.tokens);
    const model = step.model ? { model: step.model } : {};
    if (recordTokens >= step.replacedTokens) {
      change.attempt({
        ...base,
        ...model,
        outcome: "failed",
        reason: `${step.what} (${formatCount(recordTokens)} tokens) is not shorter than the ${formatCount(step.replacedTokens)} tokens it replaces`,
        durationMs: record.durationMs,
      });
      return false;
    }
    change.apply(record);
    change.attempt({
      ...base,
      ...model,
      outcome: "applied",
      reason: step.applied,
      compactionId: record.id,
      messagesAfter: record.messagesAfter,
      tokensAfter: record.tokensAfter,
      durationMs: record.durationMs,
    });
    return true;
  }

  private strategyContext(context: RunContext, model: string, maxChars?: number) {
    const bound = context.budget.summaryMaxTokens;
    return {
      summarizer: this.deps.summarizer,
      tokens: this.deps.tokens,
      settings: context.settings,
      model,
      // Room for carried details: the model is asked for a little less than the bound.
      maxTokens: context.settings.carryDetails ? Math.max(32, Math.round(bound * MODEL_SHARE_OF_BOUND)) : bound,
      ...(context.instructions ? { instructions: context.instructions } : {}),
      ...(maxChars ? { maxChars } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
    };
  }

  private bound(context: RunContext, maxChars?: number, detailSources?: string[]) {
    return {
      maxTokens: context.budget.summaryMaxTokens,
      ...(maxChars ? { maxChars } : {}),
      tokens: this.deps.tokens,
      preserveFacts: context.settings.preserveFactLines,
      ...(context.settings.carryDetails && detailSources ? { detailSources } : {}),
    };
  }

  private clock(): number {
    return this.deps.now().getTime();
  }

  private summaryModel(transcript: Transcript, settings: CompressionSettings): string {
    return settings.summaryModel.trim() || transcript.model;
  }

  private maxInputTokens(transcript: Transcript, context: Pick<RunContext, "settings" | "budget">): number {
    const window = contextWindowFor(this.summaryModel(transcript, context.settings), context.settings, this.deps.models);
    return summaryInputBudget(window, context.budget.summaryMaxTokens);
  }

  /** Completes a record with id, size, the messages it keeps beside itself and the context figures around it. */
  private record(transcript: Transcript, settings: CompressionSettings, fields: RecordFields): CompactionRecord {
    const held = heldSeqs(transcript);
    const draft: CompactionRecord = {
      ...fields,
      id: this.deps.newId(),
      summaryTokens: this.deps.tokens.count(fields.summary),
      keptSeqs: transcript.messages.filter((m) => m.seq >= fields.fromSeq && m.seq <= fields.toSeq && held.has(m.seq)).map((m) => m.seq),
      messagesBefore: contextEntryCount(transcript),
      messagesAfter: 0,
      tokensBefore: this.measure(transcript, settings).totalTokens,
      tokensAfter: 0,
      createdAt: this.deps.now(),
    };
    const after = applyCompaction(transcript, draft);
    return { ...draft, messagesAfter: contextEntryCount(after), tokensAfter: this.measure(after, settings).totalTokens };
  }

  private attemptBase(transcript: Transcript, context: Pick<RunContext, "trigger" | "background" | "settings"> & { strategy: CompactionRecord["strategy"] }) {
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

/**
 * One deadline for a whole compression pass (every summary and merge in it), joined
 * with the caller's signal; aborting with a SummaryFailure lets the attempt say why.
 */
function passSignal(timeoutMs: number, caller?: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new SummaryFailure(`compression timed out: the pass ran past its ${formatCount(timeoutMs)} ms deadline`)),
    timeoutMs,
  );
  return {
    signal: caller ? AbortSignal.any([deadline.signal, caller]) : deadline.signal,
    dispose: () => clearTimeout(timer),
  };
}
