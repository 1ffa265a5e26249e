import { repairCitations } from "./citations";
import { type ContextBudget } from "./budget";
import { ChangeBuilder } from "./change";
import { boundText } from "./condense";
import { reconcileFacts } from "./facts";
import { factSources, factsOfCompactions, factsOfMessages } from "./finalize";
import { enforceHardLimit } from "./hard-limit";
import { inViewSummaries, levelCap, planFold, planMerge, planSetAside, planSetAsideAhead, summaryRuns, type MergePlan } from "./levels";
import { standIns } from "./out-of-view";
import { budgetFor, calibrationOf, measureTranscript, toOurTokens } from "./measure";
import { planClearing } from "./clearing";
import type { RecallBlock } from "./recall";
import { toolView } from "./tool-view";
import { failureOf, passSignal, withNotes, type RunContext } from "./pass";
import { Recorder } from "./records";
import { formatCount, renderedCompactionTokens } from "./render";
import { buildRequest, requestTokens } from "./request";
import { planRewind } from "./rewind";
import { providedRange, selectRange, summarizable, type Selection } from "./selection";
import type { CompressionSettings } from "./settings";
import { deriveTitle } from "./title";
import { decideTrigger, type TriggerDecision } from "./triggers";
import { SummaryWriter, type Written } from "./writer";
import type {
  ApplyProvidedInput,
  BuiltRequest,
  CompactionProposal,
  CompactionRecord,
  CompactNowOptions,
  CompressionChange,
  CompressionLogger,
  ContextBreakdown,
  ModelCatalog,
  ProcessOptions,
  RewindCompaction,
  RewindPlan,
  Summarizer,
  TokenCounter,
  Transcript,
} from "./types";

/** What must happen before a model call; see AutoCompressionManager.needBeforeCall. */
export type BeforeCallNeed = "nothing" | "due" | "over_hard_limit";

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
/**
 * Rounds per call while the request is still over the hard limit. Cutting is the last
 * resort: what it cuts is never summarized, so a backlog (an imported conversation, a
 * smaller window chosen) is summarized round after round while the user waits, each
 * round seen as it starts; the bound is only for a backlog too long for one wait.
 */
const MAX_ROUNDS_OVER_HARD_LIMIT = 32;
/** Merges per call; each one shrinks the context, so this only guards against a bug looping. */
const MAX_MERGES = 16;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * The AutoCompressionManager. Given the active transcript and one snapshot of the
 * settings, it decides whether and what to compress and returns the change for the
 * conversation layer to store; it writes nothing and holds no per-conversation state.
 * Writing summaries (SummaryWriter), making records (Recorder) and the last-resort cut
 * (enforceHardLimit) live beside it. Model failures become failed attempts, never
 * exceptions. docs/design.md explains the model.
 */
export class AutoCompressionManager {
  private readonly deps: Required<AutoCompressionManagerDeps>;
  private readonly recorder: Recorder;
  private readonly writer: SummaryWriter;

  constructor(deps: AutoCompressionManagerDeps) {
    this.deps = { newId: () => globalThis.crypto.randomUUID(), now: () => new Date(), ...deps };
    this.recorder = new Recorder(this.deps);
    this.writer = new SummaryWriter(this.deps);
  }

  /** The figures compression works with for this conversation's model. */
  budget(transcript: Transcript, settings: CompressionSettings): ContextBudget {
    return budgetFor(transcript, settings, this.deps.models);
  }

  /** One pass's context: an automatic, foreground pass with the settings' strategy unless `run` says otherwise. */
  private context(transcript: Transcript, settings: CompressionSettings, run: Partial<Omit<RunContext, "settings" | "budget">> = {}): RunContext {
    return { settings, budget: this.budget(transcript, settings), trigger: "auto", strategy: settings.strategy, background: false, ...run };
  }

  /** The context as the model sees it (tool results cleared or cut), measured. */
  measure(transcript: Transcript, settings: CompressionSettings): ContextBreakdown {
    return measureTranscript(this.view(transcript, settings), settings, this.deps);
  }

  /** The request for the next model call, with the turn's recall block if any; guaranteed under the hard limit. */
  buildRequest(transcript: Transcript, settings: CompressionSettings, recall?: RecallBlock): BuiltRequest {
    return buildRequest(this.view(transcript, settings), settings, this.deps, this.deps.logger, recall);
  }

  /**
   * The transcript with its tool results as the model sees them (tool-view.ts). Every
   * entry point works on this view, so what is measured, selected and summarized is
   * what is sent; applying it twice changes nothing.
   */
  view(transcript: Transcript, settings: CompressionSettings): Transcript {
    return toolView(transcript, this.budget(transcript, settings).toolResultMaxTokens, this.deps.tokens, settings.preserveFactLines);
  }

  /**
   * Room a recall block may take in this transcript's request: the recall budget, or
   * what is left under the hard limit when that is less (in our count, as a message).
   */
  recallRoom(transcript: Transcript, settings: CompressionSettings): number {
    const viewed = this.view(transcript, settings);
    const budget = this.budget(viewed, settings);
    const calibration = calibrationOf(viewed.messages);
    const left = budget.hardLimit - requestTokens(viewed, settings, this.deps);
    return Math.max(0, toOurTokens(Math.min(budget.recallTokens, left), calibration));
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
  async process(stored: Transcript, settings: CompressionSettings, options: ProcessOptions = {}): Promise<CompressionChange> {
    const background = options.background ?? false;
    const transcript = this.view(stored, settings);
    const change = new ChangeBuilder(transcript, this.deps.tokens);
    const pass = passSignal(settings.summaryTimeoutMs, options.signal);
    const context = this.context(transcript, settings, {
      background,
      signal: pass.signal,
      ...(options.onSummarizing ? { onSummarizing: options.onSummarizing } : {}),
    });
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
    if (!background) enforceHardLimit(change, context, { ...this.deps, recorder: this.recorder });
    return change.result();
  }

  /**
   * What the check before a model call has to do: nothing; compact because a trigger
   * fired while the request still fits the hard limit ("due"); or compact (or, failing
   * that, truncate) because the request is over the hard limit ("over_hard_limit"). The
   * caller may send a "due" request as it is while a pre-emptive compaction is being
   * written: the summary under way is the compaction the trigger asks for, and waiting
   * for it would only add its latency to this turn.
   */
  needBeforeCall(stored: Transcript, settings: CompressionSettings): BeforeCallNeed {
    const transcript = this.view(stored, settings);
    const context = this.context(transcript, settings);
    if (requestTokens(transcript, settings, this.deps) > context.budget.hardLimit) return "over_hard_limit";
    if (this.decide(transcript, context) !== null) return "due";
    return settings.enabled && this.clearingPlan(transcript, context, null) !== null ? "due" : "nothing";
  }

  /** Whether the check after a reply (`process` with `background`) would compact pre-emptively. */
  dueAfterReply(stored: Transcript, settings: CompressionSettings): boolean {
    if (!settings.enabled) return false;
    const transcript = this.view(stored, settings);
    const context = this.context(transcript, settings, { background: true });
    return this.decide(transcript, context) !== null || this.clearingPlan(transcript, context, null) !== null;
  }

  async compactNow(
    stored: Transcript,
    settings: CompressionSettings,
    options: CompactNowOptions = {},
  ): Promise<CompressionChange & { proposal?: CompactionProposal }> {
    const transcript = this.view(stored, settings);
    const change = new ChangeBuilder(transcript, this.deps.tokens);
    const pass = passSignal(settings.summaryTimeoutMs, options.signal);
    const context = this.context(transcript, settings, {
      trigger: "manual",
      strategy: options.strategy ?? settings.strategy,
      signal: pass.signal,
      ...(options.instructions?.trim() ? { instructions: options.instructions.trim() } : {}),
    });
    try {
      const selection = selectRange(transcript, {
        keep: settings.keepRecentCount,
        protectLastUser: false,
        maxInputTokens: this.writer.maxInputTokens(transcript, context),
      });
      if (!selection) {
        change.attempt(this.recorder.skipped(transcript, context, `nothing to compress: only the newest ${settings.keepRecentCount} messages (and pinned ones) are active`));
        return change.result();
      }
      const fold = options.preview ? [] : this.foldFor(transcript, selection, context);
      const written = await this.writer.summarize(transcript, selection, fold, context);
      if (options.preview && written.ok) {
        const { output } = written;
        const proposal: CompactionProposal = {
          summary: output.summary,
          ...(output.title ? { title: output.title } : {}),
          fromSeq: selection.fromSeq,
          toSeq: selection.toSeq,
          strategy: context.strategy,
          ...(output.sections ? { sections: output.sections } : {}),
          ...(output.model ? { summaryModel: output.model } : {}),
          replacedTokens: selection.tokens,
          proposedTokens: renderedCompactionTokens({ kind: "summary", level: 1, fromSeq: selection.fromSeq, toSeq: selection.toSeq, summary: output.summary, ...(output.title ? { title: output.title } : {}) }, this.deps.tokens),
        };
        const reason = `preview only: summary of messages ${selection.fromSeq}–${selection.toSeq} proposed, not applied`;
        change.attempt(this.recorder.skipped(transcript, context, reason, written.durationMs, output.model, written.usage));
        return { ...change.result(), proposal };
      }
      if (this.applySummary(change, selection, fold, written, context, "manual compaction requested")) await this.mergeLevels(change, context);
      return change.result();
    } finally {
      pass.dispose();
    }
  }

  /**
   * A compaction from text written elsewhere: the chat model's compress_context call
   * or a user-edited preview.
   */
  applyProvided(stored: Transcript, input: ApplyProvidedInput, settings: CompressionSettings): CompressionChange {
    const transcript = this.view(stored, settings);
    const change = new ChangeBuilder(transcript, this.deps.tokens);
    const strategy = input.strategy ?? "model_provided";
    const context = { settings, budget: this.budget(transcript, settings), trigger: input.trigger, strategy, background: false } as const;
    const started = this.deps.now().getTime();
    if (!input.summary.trim()) {
      change.attempt(this.recorder.failed(transcript, context, { reason: "provided summary is empty", durationMs: 0 }));
      return change.result();
    }
    const range = providedRange(transcript, settings.keepRecentCount, input.fromSeq, input.toSeq, input.trigger === "tool");
    if (!range) {
      change.attempt(this.recorder.skipped(transcript, context, "nothing to compress in the requested range"));
      return change.result();
    }
    const messages = summarizable(transcript).filter((m) => m.seq >= range.fromSeq && m.seq <= range.toSeq);
    const children = transcript.compactions.filter((c) => c.fromSeq >= range.fromSeq && c.toSeq <= range.toSeq);
    // A model's own summary gets the same fact guarantee and bound as ours; a user's edit is taken as written.
    let summary = input.summary.trim();
    const notes: string[] = [];
    if (input.trigger === "tool") {
      // Its cites are checked like those of a summary we asked for.
      summary = repairCitations(summary, range).text;
      if (settings.preserveFactLines) summary = reconcileFacts(summary, [...factsOfMessages(messages), ...factsOfCompactions(children)], [], factSources(children, messages));
      const bounded = boundText(summary, context.budget.summaryMaxTokens, this.deps.tokens, settings.preserveFactLines);
      if (bounded.shortened) notes.push(`shortened to ${formatCount(context.budget.summaryMaxTokens)} tokens`);
      summary = bounded.text;
    }
    const applied = input.trigger === "tool" ? "the chat model called compress_context" : "a provided summary was applied";
    this.recorder.commit(change, context, {
      fields: {
        level: children.length > 0 ? Math.max(...children.map((c) => c.level)) + 1 : 1,
        kind: "summary",
        trigger: input.trigger,
        strategy,
        fromSeq: range.fromSeq,
        toSeq: range.toSeq,
        summary,
        title: input.title?.trim() || deriveTitle(summary),
        ...(input.sections && notes.length === 0 ? { sections: input.sections } : {}),
        ...(input.trigger === "tool" ? { summaryModel: transcript.model } : {}),
        ...(input.instructions?.trim() ? { instructions: input.instructions.trim() } : {}),
        childIds: children.map((c) => c.id),
        coveredMessageCount: messages.length + children.reduce((sum, c) => sum + c.coveredMessageCount, 0),
        coveredTokens: messages.reduce((sum, m) => sum + m.tokens, 0) + children.reduce((sum, c) => sum + c.coveredTokens, 0),
        background: false,
        durationMs: this.deps.now().getTime() - started,
      },
      replacedTokens: messages.reduce((sum, m) => sum + m.tokens, 0) + this.cost(children),
      what: "provided summary",
      applied: withNotes(`${applied} for messages ${range.fromSeq}–${range.toSeq}`, notes),
    });
    return change.result();
  }

  // ---- decisions ----

  private async autoCompress(change: ChangeBuilder, context: RunContext): Promise<void> {
    let retried = false;
    let cleared = false;
    for (let round = 0; ; round++) {
      if (context.signal?.aborted) return;
      let decision = this.decide(change.transcript, context);
      if (round >= (decision?.overHardLimit ? MAX_ROUNDS_OVER_HARD_LIMIT : MAX_ROUNDS)) {
        if (decision?.overHardLimit) change.roundsRanOut = round;
        return;
      }
      // Old tool output goes first: it costs no model call, and a summary written after
      // it reads the notes instead of the whole outputs.
      if (!cleared && this.clearOldResults(change, context, decision)) {
        cleared = true;
        if (decision) decision = this.decide(change.transcript, context, true);
      }
      if (!decision) return;
      let selection = selectRange(change.transcript, decision.rules);
      // Over the hard limit the alternative to summarizing the kept tail is cutting it.
      if (!selection && decision.overHardLimit) selection = selectRange(change.transcript, { ...decision.rules, keep: 0 });
      if (!selection) {
        if (decision.overHardLimit && (await this.shortenSummaries(change, context))) continue;
        if (round === 0) {
          const reason = `${decision.reason}, but nothing can be compressed: only recent, pinned or protected messages are active`;
          change.attempt(this.recorder.skipped(change.transcript, context, reason));
        }
        return;
      }
      context.onSummarizing?.({ fromSeq: selection.fromSeq, toSeq: selection.toSeq, messageCount: selection.messages.length });
      const fold = this.foldFor(change.transcript, selection, context);
      const written = await this.writer.summarize(change.transcript, selection, fold, fold.length ? carrying(context) : context, decision.maxChars);
      if (!this.applySummary(change, selection, fold, written, context, decision.reason)) {
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

  /**
   * The clearing pass, whether or not a summary is due. Each clearing changes the
   * request from its first cleared result on, so a provider's prefix cache misses from
   * there: on its own it is applied when it frees more than it makes the provider read
   * again and clears only rounds of earlier turns (with only the newest round kept, that
   * is every round: the break falls where the request was new anyway; the turn under way
   * may still be comparing its results), or else when it frees a meaningful share of the
   * threshold; before a summary (which changes the request from further back anyway)
   * everything clearable goes.
   */
  private clearOldResults(change: ChangeBuilder, context: RunContext, decision: TriggerDecision | null): boolean {
    const plan = this.clearingPlan(change.transcript, context, decision);
    if (!plan) return false;
    const attemptContext = { ...context, strategy: "clearing" as const };
    const base = this.recorder.attemptBase(change.transcript, attemptContext);
    const record = this.recorder.make(change.transcript, context.settings, plan.fields);
    change.apply(record);
    change.attempt({
      ...base,
      outcome: "applied",
      reason: `${decision?.reason ?? `${formatCount(plan.freedTokens)} tokens of old tool output to clear`}: cleared ${plural(plan.cleared, "old tool result", "old tool results")} of messages ${record.fromSeq}–${record.toSeq} (kept the newest ${plural(plan.keptRounds, "round", "rounds")})`,
      compactionId: record.id,
      messagesAfter: record.messagesAfter,
      tokensAfter: record.tokensAfter,
      durationMs: 0,
    });
    return true;
  }

  private clearingPlan(transcript: Transcript, context: RunContext, decision: TriggerDecision | null) {
    const { settings, budget } = context;
    if (!settings.clearToolResults) return null;
    // The bound a cut result is held to (our count, as the view cuts): the kept rounds hold about one long result.
    const plan = planClearing(transcript, { rounds: settings.keepToolRounds, maxTokens: budget.toolResultMaxTokens }, context.trigger, context.background, this.deps.tokens);
    if (!plan || plan.freedTokens <= 0) return null;
    if (decision || (!plan.clearsThisTurn && plan.freedTokens >= plan.resentTokens)) return plan;
    const calibration = this.measure(transcript, settings).calibration;
    return plan.freedTokens >= toOurTokens(budget.minClearingTokens, calibration) ? plan : null;
  }

  /** `toTarget`: after a clearing, what is still over the target is summarized even under the threshold (one cache break, not two). */
  private decide(transcript: Transcript, context: RunContext, toTarget = false): TriggerDecision | null {
    // Measured once: the trigger and the wait below read the same breakdown.
    const breakdown = this.measure(transcript, context.settings);
    const decision = decideTrigger({
      toTarget,
      transcript,
      settings: context.settings,
      budget: context.budget,
      breakdown,
      background: context.background,
      maxInputTokens: this.writer.maxInputTokens(transcript, context),
      requestTokens: context.background ? 0 : requestTokens(transcript, context.settings, this.deps),
    });
    return decision && !toTarget && this.preemptiveWaits(transcript, context, decision, breakdown) ? null : decision;
  }

  /**
   * A pre-emptive compaction is worth its summary call and the cache break it causes when
   * it frees about what one at the threshold would (threshold less target). When the
   * summaries in view and the kept tail leave less than that to take — at small windows
   * they sit near the target — it waits for the conversation to grow, up to the latest
   * point a pre-emptive one may start: firing at once bought a few turns of room per call
   * (docs/design.md, "When compression runs").
   */
  private preemptiveWaits(transcript: Transcript, context: RunContext, decision: TriggerDecision, measured: ContextBreakdown): boolean {
    const { budget, settings } = context;
    if (!context.background || decision.overHardLimit || settings.triggerMode !== "tokens") return false;
    if (measured.totalTokens >= budget.preemptiveLatestTokens) return false;
    const largest = selectRange(transcript, { ...decision.rules, enoughTokens: Number.POSITIVE_INFINITY });
    // Nothing to take: the pass says so in its attempt, as before.
    if (!largest) return false;
    const wanted = toOurTokens(budget.thresholdTokens - budget.targetTokens, measured.calibration);
    return largest.tokens - budget.summaryMaxTokens / 2 < wanted;
  }

  private noteDisabled(change: ChangeBuilder, context: RunContext): void {
    const decision = this.decide(change.transcript, context);
    if (decision) change.attempt(this.recorder.skipped(change.transcript, context, `automatic compression is disabled (${decision.reason})`));
  }

  /** Level-1 summaries to fold into this one; only model strategies that write one summary of a range can. */
  private foldFor(transcript: Transcript, selection: Selection, context: RunContext): CompactionRecord[] {
    if (context.strategy !== "ai_summary" && context.strategy !== "structured") return [];
    return planFold(transcript, selection, context.budget, this.deps.tokens);
  }

  /** The highest level a merge may make in this conversation (see levelCap). */
  private cap(transcript: Transcript, context: RunContext): number {
    // Sequence numbers count every message ever written too (the loaded count may leave rewound ones out).
    const newest = Math.max(0, ...transcript.messages.map((m) => m.seq), ...transcript.compactions.map((c) => c.toSeq));
    return levelCap(Math.max(transcript.totalMessageCount, newest), context.settings.keepRecentCount);
  }

  /** Merges (or sets the oldest summaries out of view) until the summary budgets hold again; true when anything changed. */
  private async mergeLevels(change: ChangeBuilder, context: RunContext): Promise<boolean> {
    let merged = false;
    let mergeFailed = false;
    for (let merges = 0; merges < MAX_MERGES; merges++) {
      if (context.signal?.aborted) return merged;
      // After a failed merge this pass makes no more model calls (the same run would be
      // asked again): the bound is kept by setting the oldest summaries aside instead, so
      // a summarizer that cannot write a shorter merge cannot grow the summaries in view.
      const plan = mergeFailed
        ? planSetAside(change.transcript, context.budget, this.deps.tokens, "the summarizer could not merge them shorter")
        : planMerge(change.transcript, context.budget, this.deps.tokens, this.cap(change.transcript, context));
      if (!plan) return this.setAsideAhead(change, context) || merged;
      if (plan.kind === "set_aside") this.setAside(change, plan.compaction, plan.reason, context);
      else if (!(await this.merge(change, plan, carrying(context)))) {
        mergeFailed = true;
        continue;
      }
      merged = true;
    }
    return merged;
  }

  /** See planSetAsideAhead. */
  private setAsideAhead(change: ChangeBuilder, context: RunContext): boolean {
    const merged = new Set(change.created.filter((c) => c.kind === "summary" && c.childIds.length > 0).map((c) => c.id));
    if (merged.size === 0) return false;
    const written = change.created.findLast((c) => c.kind === "summary" && c.childIds.length === 0);
    const plan = planSetAsideAhead(change.transcript, context.budget, this.deps.tokens, this.cap(change.transcript, context), merged, written?.summaryTokens);
    if (!plan || plan.kind !== "set_aside") return false;
    // Not when the other stand-ins would have to give up room for it: that is a loss now, for a saving later.
    const texts = standIns(change.transcript.compactions, plan.compaction, context.budget, this.deps.tokens, context.settings.preserveFactLines);
    if (texts.length > 1) return false;
    this.setAside(change, plan.compaction, plan.reason, context, texts);
    return true;
  }

  /**
   * A summary leaves the model's view without a model call: the request keeps one line
   * for it (title and range); the record stays in the tree, in search and in exports.
   */
  private setAside(
    change: ChangeBuilder,
    compaction: CompactionRecord,
    reason: string,
    context: RunContext,
    texts = standIns(change.transcript.compactions, compaction, context.budget, this.deps.tokens, context.settings.preserveFactLines),
  ): void {
    for (const { id, text } of texts) change.setOutOfView(id, text);
    this.deps.logger.info({ conversationId: change.transcript.conversationId, compactionId: compaction.id, level: compaction.level }, reason);
  }

  /**
   * Over the hard limit with no message left to summarize, the summaries themselves
   * are rewritten shorter — the largest run of them into one summary that fits —
   * before anything is cut.
   */
  private async shortenSummaries(change: ChangeBuilder, context: RunContext): Promise<boolean> {
    const transcript = change.transcript;
    const cap = this.cap(transcript, context);
    const run = summaryRuns(transcript)
      .filter((candidate) => Math.max(...candidate.map((c) => c.level)) + 1 <= cap)
      .sort((a, b) => this.cost(b) - this.cost(a))[0];
    if (!run) {
      // Rewriting would summarize the top of the tree once more than its height allows: the oldest summary leaves the view instead.
      const shown = inViewSummaries(transcript);
      if (shown.length < 2) return false;
      this.setAside(change, shown[0]!, "the request is over the hard limit with nothing left to summarize and no summary may climb further: the oldest summary leaves the model's view", context);
      return true;
    }
    const factor = this.measure(transcript, context.settings).calibration.factor;
    const over = requestTokens(transcript, context.settings, this.deps) - context.budget.hardLimit;
    const fits = Math.min(context.budget.levelBudgetTokens, this.cost(run) - Math.ceil(over / factor) - 32);
    if (fits < 32) return false;
    const plan: MergePlan = {
      level: Math.max(...run.map((c) => c.level)) + 1,
      children: run,
      reason: `the request is over the hard limit with nothing left to summarize: ${plural(run.length, "summary", "summaries")} rewritten to fit in ${formatCount(fits)} tokens`,
    };
    return this.merge(change, plan, { ...context, budget: { ...context.budget, summaryMaxTokens: fits } });
  }

  // ---- from written summaries to records ----

  /** Turns a summary into a compaction (level 1, or one above what it folds in), or records why it cannot be used. */
  private applySummary(change: ChangeBuilder, selection: Selection, fold: CompactionRecord[], written: Written, context: RunContext, reason: string): boolean {
    if (!written.ok) {
      const { ok: _ok, ...failure } = written;
      change.attempt(this.recorder.failed(change.transcript, context, failure));
      return false;
    }
    const { output } = written;
    const folded = fold.length > 0 ? `, folding in ${plural(fold.length, "earlier summary", "earlier summaries")} (up to level ${Math.max(...fold.map((c) => c.level))})` : "";
    return this.recorder.commit(change, context, {
      fields: {
        level: fold.length > 0 ? Math.max(...fold.map((c) => c.level)) + 1 : 1,
        kind: "summary",
        trigger: context.trigger,
        strategy: context.strategy,
        fromSeq: fold[0]?.fromSeq ?? selection.fromSeq,
        toSeq: selection.toSeq,
        summary: output.summary,
        ...(output.title ? { title: output.title } : {}),
        ...(output.sections ? { sections: output.sections } : {}),
        ...(output.model ? { summaryModel: output.model } : {}),
        ...(context.instructions ? { instructions: context.instructions } : {}),
        childIds: fold.map((c) => c.id),
        coveredMessageCount: selection.messages.length + fold.reduce((sum, c) => sum + c.coveredMessageCount, 0),
        coveredTokens: selection.tokens + fold.reduce((sum, c) => sum + c.coveredTokens, 0),
        background: context.background,
        durationMs: written.durationMs,
        ...(written.usage ? { usage: written.usage } : {}),
      },
      replacedTokens: selection.tokens + this.cost(fold),
      what: "summary",
      applied: withNotes(`${reason}: summarized messages ${selection.fromSeq}–${selection.toSeq}${folded}`, output.notes),
      ...(output.model ? { model: output.model } : {}),
    });
  }

  private async merge(change: ChangeBuilder, plan: MergePlan, context: RunContext): Promise<boolean> {
    const written = await this.writer.merge(change.transcript, plan.children, plan.level, context);
    if (!written.ok) {
      const { ok: _ok, ...failure } = written;
      change.attempt(this.recorder.failed(change.transcript, context, failure));
      return false;
    }
    const { output } = written;
    return this.recorder.commit(change, context, {
      fields: {
        level: plan.level,
        kind: "summary",
        trigger: context.trigger,
        strategy: context.strategy,
        fromSeq: plan.children[0]!.fromSeq,
        toSeq: plan.children.at(-1)!.toSeq,
        summary: output.summary,
        ...(output.title ? { title: output.title } : {}),
        ...(output.sections ? { sections: output.sections } : {}),
        ...(output.model ? { summaryModel: output.model } : {}),
        ...(context.instructions ? { instructions: context.instructions } : {}),
        childIds: plan.children.map((c) => c.id),
        coveredMessageCount: plan.children.reduce((sum, c) => sum + c.coveredMessageCount, 0),
        coveredTokens: plan.children.reduce((sum, c) => sum + c.coveredTokens, 0),
        background: context.background,
        durationMs: written.durationMs,
        ...(written.usage ? { usage: written.usage } : {}),
      },
      replacedTokens: this.cost(plan.children),
      what: "merged summary",
      applied: withNotes(plan.reason, output.notes),
      ...(output.model ? { model: output.model } : {}),
    });
  }

  /** What compactions cost in the request. */
  private cost(compactions: CompactionRecord[]): number {
    return compactions.reduce((sum, c) => sum + renderedCompactionTokens(c, this.deps.tokens), 0);
  }
}

/**
 * A summary that takes other summaries in (a fold or a merge) carries what all of them
 * held: it is bounded by what the summaries of one level may take, not by the bound of
 * a summary of new messages. Held to the smaller bound, every fold squeezed the whole
 * history back into one new summary's room, and facts fell out at each level.
 */
function carrying(context: RunContext): RunContext {
  const { budget } = context;
  return { ...context, budget: { ...budget, summaryMaxTokens: Math.max(budget.summaryMaxTokens, budget.levelBudgetTokens) } };
}
