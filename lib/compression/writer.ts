import type { CoveredRange } from "./citations";
import type { DetailSource } from "./details";
import { extractFacts } from "./facts";
import { detailSources, factSources, factsOfCompactions, factsOfMessages, finalizeOutput, messageText } from "./finalize";
import { contextWindowFor } from "./measure";
import { failureOf, type RunContext } from "./pass";
import type { Selection } from "./selection";
import type { CompressionSettings } from "./settings";
import { sharedPrefix, type Material, type SharedPrefix } from "./shared-prefix";
import { STRATEGY_REGISTRY } from "./strategies";
import type { StrategyContext, StrategyOutput } from "./strategies/types";
import { summaryInputBudget } from "./triggers";
import { DEFAULT_SUMMARY_INSTRUCTIONS, STRUCTURED_INSTRUCTIONS } from "./prompts";
import { SummaryFailure, TOOL_CALL_INSTEAD } from "./summary-call";
import type { CallUsage, CompactionRecord, ModelCatalog, Summarizer, TokenCounter, Transcript } from "./types";
import { meteredSummarizer } from "./usage";

/** With carryDetails, the model writes at most this share of the bound; the rest is room for what it left out. */
const MODEL_SHARE_OF_BOUND = 0.8;
/** The instruction's own lines beyond the strategy's text (tag, range line, title request, limits), generously. */
const INSTRUCTION_FRAME_TOKENS = 200;

/** A summary ready to become a record, or why there is none; usage: what its model calls cost, failed ones included. */
export type Written =
  | { ok: true; output: StrategyOutput; durationMs: number; usage?: CallUsage }
  | { ok: false; reason: string; error?: string; model?: string; durationMs: number; usage?: CallUsage };

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
    const sourceFacts = preserve ? [...factsOfCompactions(fold), ...factsOfMessages(selection.messages)] : [];
    // A fold's record starts where its oldest folded summary does.
    const covered = { fromSeq: Math.min(selection.fromSeq, ...fold.map((c) => c.fromSeq)), toSeq: selection.toSeq };
    const bound = this.bound(context, covered, maxChars, detailSources(fold, selection.messages), preserve ? factSources(fold, selection.messages) : undefined);
    const sources = selection.messages.map(messageText);
    // Turn digests are many small requests, one per turn: each would re-send the whole conversation.
    const shares = context.strategy === "ai_summary" || context.strategy === "structured";
    const material: Material = { kind: "summary", fromSeq: selection.fromSeq, toSeq: selection.toSeq, seqs: selection.messages.map((m) => m.seq), summaries: fold };
    return this.write(transcript, context, shares ? material : undefined, async (strategyContext, shared) => {
      const output = await STRATEGY_REGISTRY[context.strategy].summarize({
        ...strategyContext,
        ...(maxChars ? { maxChars } : {}),
        messages: selection.messages,
        fromSeq: selection.fromSeq,
        toSeq: selection.toSeq,
        context: precedingSummary,
        fold,
      });
      if (shared) {
        // The shared request shows every summary in view and the messages after the range: what the model copied of them is not new.
        const others = shared.otherSummaries;
        return finalizeOutput(output, sourceFacts, preserve ? [...factsOfCompactions(others), ...extractFacts(shared.after.join("\n"))] : [], bound, { summaries: shared.background, sources });
      }
      return finalizeOutput(
        output,
        sourceFacts,
        preserve && fold.length === 0 ? factsOfCompactions(precedingSummary) : [],
        bound,
        // The preceding summary is shown as background only when nothing is folded in.
        fold.length === 0 ? { summaries: precedingSummary.map((c) => c.summary), sources } : undefined,
      );
    });
  }

  /** One summary of `children`, a level above them. */
  async merge(transcript: Transcript, children: CompactionRecord[], level: number, context: RunContext): Promise<Written> {
    const shares = context.strategy !== "simple_extract";
    return this.write(transcript, context, shares ? { kind: "merge", summaries: children } : undefined, async (strategyContext, shared) =>
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
        shared ? { summaries: shared.background, sources: children.map((c) => c.summary) } : undefined,
      ),
    );
  }

  /**
   * The chat request's prefix for this summary, when the summary model is the chat
   * model (a different model has its own cache: the compact framing is its stable
   * prefix) and the shared request fits (see sharedPrefix).
   */
  private shared(transcript: Transcript, context: RunContext, material: Material, maxTokens: number): SharedPrefix | undefined {
    if (summaryModelOf(transcript, context.settings) !== transcript.model) return undefined;
    const instructions = [context.settings.customPrompt, context.instructions ?? "", context.strategy === "structured" ? STRUCTURED_INSTRUCTIONS : DEFAULT_SUMMARY_INSTRUCTIONS];
    const instructionTokens = INSTRUCTION_FRAME_TOKENS + instructions.reduce((sum, text) => sum + this.deps.tokens.count(text), 0);
    return sharedPrefix(transcript, context.settings, this.deps, material, { instructionTokens, replyTokens: maxTokens }) ?? undefined;
  }

  private async write(
    transcript: Transcript,
    context: RunContext,
    material: Material | undefined,
    run: (strategyContext: StrategyContext & { model: string; maxTokens: number }, shared: SharedPrefix | undefined) => Promise<StrategyOutput>,
  ): Promise<Written> {
    const started = this.deps.now().getTime();
    const model = summaryModelOf(transcript, context.settings);
    const meter = meteredSummarizer(this.deps.summarizer, transcript.conversationId);
    const usage = () => {
      const total = meter.usage();
      return total ? { usage: total } : {};
    };
    try {
      const strategyContext = this.strategyContext(context, model, meter.summarizer);
      const shared = material ? this.shared(transcript, context, material, strategyContext.maxTokens) : undefined;
      let output: StrategyOutput;
      try {
        output = await run(shared ? { ...strategyContext, shared } : strategyContext, shared);
      } catch (error) {
        // Offered the chat's tools, a model may answer with a tool call and no text: the compact framing offers none.
        if (!shared || !(error instanceof SummaryFailure) || error.reason !== TOOL_CALL_INSTEAD || context.signal?.aborted) throw error;
        output = await run(strategyContext, undefined);
      }
      return { ok: true, output, durationMs: this.deps.now().getTime() - started, ...usage() };
    } catch (error) {
      const usesModel = context.strategy !== "simple_extract";
      return { ok: false, ...failureOf(error), ...(usesModel ? { model } : {}), durationMs: this.deps.now().getTime() - started, ...usage() };
    }
  }

  private strategyContext(context: RunContext, model: string, summarizer: Summarizer) {
    const bound = context.budget.summaryMaxTokens;
    return {
      summarizer,
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
