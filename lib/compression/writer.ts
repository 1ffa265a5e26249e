import type { CoveredRange } from "./citations";
import type { DetailSource } from "./details";
import { detailSources, factSources, factsOfCompactions, factsOfMessages, finalizeOutput, messageText } from "./finalize";
import { contextWindowFor } from "./measure";
import { failureOf, type RunContext } from "./pass";
import type { Selection } from "./selection";
import type { CompressionSettings } from "./settings";
import { STRATEGY_REGISTRY } from "./strategies";
import type { StrategyOutput } from "./strategies/types";
import { summaryInputBudget } from "./triggers";
import type { CompactionRecord, ModelCatalog, Summarizer, TokenCounter, Transcript } from "./types";

/** With carryDetails, the model writes at most this share of the bound; the rest is room for what it left out. */
const MODEL_SHARE_OF_BOUND = 0.8;

/** A summary ready to become a record, or why there is none. */
export type Written =
  | { ok: true; output: StrategyOutput; durationMs: number }
  | { ok: false; reason: string; error?: string; model?: string; durationMs: number };

export type WriterDeps = { summarizer: Summarizer; tokens: TokenCounter; models: ModelCatalog; now: () => Date };

export function summaryModelOf(transcript: Pick<Transcript, "model">, settings: CompressionSettings): string {
  return settings.summaryModel.trim() || transcript.model;
}

/** Has a strategy write summaries and merges, and makes what it wrote safe to store (bounded, facts kept). */
export class SummaryWriter {
  constructor(private readonly deps: WriterDeps) {}

  /** What the summary model can read in one prompt. */
  maxInputTokens(transcript: Pick<Transcript, "model">, context: Pick<RunContext, "settings" | "budget">): number {
    const window = contextWindowFor(summaryModelOf(transcript, context.settings), context.settings, this.deps.models);
    return summaryInputBudget(window, context.budget.summaryMaxTokens);
  }

  /** A summary of `selection`, with the summaries in `fold` folded into it. */
  async summarize(transcript: Transcript, selection: Selection, fold: CompactionRecord[], context: RunContext, maxChars?: number): Promise<Written> {
    const precedingSummary = transcript.compactions.filter((c) => c.kind === "summary" && c.outOfView === undefined && c.toSeq < selection.fromSeq).slice(-1);
    const preserve = context.settings.preserveFactLines;
    // A fold's record starts where its oldest folded summary does.
    const covered = { fromSeq: Math.min(selection.fromSeq, ...fold.map((c) => c.fromSeq)), toSeq: selection.toSeq };
    return this.write(transcript, context, async (strategyContext) =>
      finalizeOutput(
        await STRATEGY_REGISTRY[context.strategy].summarize({
          ...strategyContext,
          ...(maxChars ? { maxChars } : {}),
          messages: selection.messages,
          fromSeq: selection.fromSeq,
          toSeq: selection.toSeq,
          context: precedingSummary,
          fold,
        }),
        preserve ? [...factsOfCompactions(fold), ...factsOfMessages(selection.messages)] : [],
        preserve && fold.length === 0 ? factsOfCompactions(precedingSummary) : [],
        this.bound(context, covered, maxChars, detailSources(fold, selection.messages), preserve ? factSources(fold, selection.messages) : undefined),
        // The preceding summary is shown as background only when nothing is folded in.
        fold.length === 0 ? { summaries: precedingSummary.map((c) => c.summary), sources: selection.messages.map(messageText) } : undefined,
      ),
    );
  }

  /** One summary of `children`, a level above them. */
  async merge(transcript: Transcript, children: CompactionRecord[], level: number, context: RunContext): Promise<Written> {
    return this.write(transcript, context, async (strategyContext) =>
      finalizeOutput(
        await STRATEGY_REGISTRY[context.strategy].merge({ ...strategyContext, children, level }),
        context.settings.preserveFactLines ? factsOfCompactions(children) : [],
        [],
        this.bound(
          context,
          { fromSeq: Math.min(...children.map((c) => c.fromSeq)), toSeq: Math.max(...children.map((c) => c.toSeq)) },
          undefined,
          detailSources(children, []),
          context.settings.preserveFactLines ? factSources(children, []) : undefined,
        ),
      ),
    );
  }

  private async write(
    transcript: Transcript,
    context: RunContext,
    run: (strategyContext: ReturnType<SummaryWriter["strategyContext"]>) => Promise<StrategyOutput>,
  ): Promise<Written> {
    const started = this.deps.now().getTime();
    const model = summaryModelOf(transcript, context.settings);
    try {
      const output = await run(this.strategyContext(context, model));
      return { ok: true, output, durationMs: this.deps.now().getTime() - started };
    } catch (error) {
      const usesModel = context.strategy !== "simple_extract";
      return { ok: false, ...failureOf(error), ...(usesModel ? { model } : {}), durationMs: this.deps.now().getTime() - started };
    }
  }

  private strategyContext(context: RunContext, model: string) {
    const bound = context.budget.summaryMaxTokens;
    return {
      summarizer: this.deps.summarizer,
      tokens: this.deps.tokens,
      settings: context.settings,
      model,
      // Room for carried details: the model is asked for a little less than the bound.
      maxTokens: context.settings.carryDetails ? Math.max(32, Math.round(bound * MODEL_SHARE_OF_BOUND)) : bound,
      ...(context.instructions ? { instructions: context.instructions } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
    };
  }

  /** Every summary's cites are checked against `covered`, the range its record will cover. */
  private bound(context: RunContext, covered: CoveredRange, maxChars?: number, sources?: DetailSource[], facts?: ReturnType<typeof factSources>) {
    return {
      maxTokens: context.budget.summaryMaxTokens,
      ...(maxChars ? { maxChars } : {}),
      tokens: this.deps.tokens,
      preserveFacts: context.settings.preserveFactLines,
      covered,
      ...(facts ? { factSources: facts } : {}),
      ...(context.settings.carryDetails && sources ? { detailSources: sources } : {}),
    };
  }
}
