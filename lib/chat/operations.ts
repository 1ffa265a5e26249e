// Every user-facing operation, once. Server actions (app/actions.ts) and the JSON
// API (app/api/**) are thin shells around these: they validate with the schemas in
// ./inputs and translate AppError into a result or an HTTP status.
import { z } from "zod";
import { compressionSettingsSchema, type CompressionSettings } from "../compression/settings";
import { getDb } from "../db/client";
import { listAttempts, loadCompactionChildren, loadTimeline } from "../db/compactions";
import * as conversations from "../db/conversations";
import { getMessage, lastUserSeqs, setPinned } from "../db/messages";
import { rewindFrom } from "../db/rewind";
import { readSettings, writeSettings } from "../db/settings";
import { AppError } from "../errors";
import { defaultModel, getModelEndpoint, listModels } from "../llm/client";
import { attemptRecordToView } from "../db/mappers";
import {
  activeTranscript,
  compressionManager,
  contextMeter,
  withConversationLock,
  withTranscript,
  type AppliedChange,
} from "./compressor";
import {
  applyProposalInput,
  childrenInput,
  compactInput,
  createConversationInput,
  editMessageInput,
  fieldErrors,
  idSchema,
  pinInput,
  rewindInput,
  timelineInput,
  turnInput,
  updateConversationInput,
} from "./inputs";
import type { TurnEvent } from "./events";
import { runTurn } from "./turn";
import { stopTurns } from "./running-turns";
import type { AttemptView, CompactionView } from "../views";

export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const fields = fieldErrors(result.error);
    const first = result.error.issues[0];
    const where = first?.path.length ? `${first.path.join(".")}: ` : "";
    throw new AppError("invalid_input", `${where}${first?.message ?? "Invalid input."}`, fields);
  }
  return result.data;
}

export async function createConversation(input: unknown) {
  const { title, model, systemPrompt } = parse(createConversationInput, input ?? {});
  return conversations.createConversation(await getDb(), {
    title: title ?? "New conversation",
    model: model ?? defaultModel(),
    systemPrompt: systemPrompt ?? "",
  });
}

export async function listConversations() {
  return conversations.listConversations(await getDb());
}

export async function getConversation(id: unknown) {
  return conversations.getConversation(await getDb(), parse(idSchema, id));
}

export async function updateConversation(input: unknown) {
  const { conversationId, ...patch } = parse(updateConversationInput, input);
  return conversations.updateConversation(await getDb(), conversationId, patch);
}

export async function deleteConversation(id: unknown) {
  await conversations.deleteConversation(await getDb(), parse(idSchema, id));
}

export async function timeline(input: unknown) {
  const { conversationId, beforeSeq, limit } = parse(timelineInput, input);
  return loadTimeline(await getDb(), conversationId, { limit, ...(beforeSeq ? { beforeSeq } : {}) });
}

export async function compactionChildren(input: unknown) {
  const { compactionId, afterSeq, limit } = parse(childrenInput, input);
  return loadCompactionChildren(await getDb(), compactionId, { limit, ...(afterSeq != null ? { afterSeq } : {}) });
}

export async function attempts(conversationId: unknown): Promise<AttemptView[]> {
  const id = parse(idSchema, conversationId);
  await conversations.getConversation(await getDb(), id);
  return listAttempts(await getDb(), id);
}

export async function pinMessage(input: unknown) {
  const { conversationId, seq, pinned } = parse(pinInput, input);
  return setPinned(await getDb(), conversationId, seq, pinned);
}

export async function meter(conversationId: unknown) {
  return contextMeter(parse(idSchema, conversationId));
}

export function stop(conversationId: unknown): { stopped: number } {
  return { stopped: stopTurns(parse(idSchema, conversationId)) };
}

function rewindPlanner() {
  const manager = compressionManager();
  return manager.planRewind.bind(manager);
}

/**
 * Hides messages from `fromSeq` on. Holds the conversation's compression lock so no
 * compaction of those messages is being prepared meanwhile (one that was is refused at
 * save time by the history version).
 */
function rewindLocked(conversationId: string, fromSeq: number) {
  return withConversationLock(conversationId, async () => rewindFrom(await getDb(), conversationId, fromSeq, rewindPlanner()));
}

/** Removes the last `turns` user turns (and everything after them) from the conversation. */
export async function rewind(input: unknown) {
  const { conversationId, turns } = parse(rewindInput, input);
  await conversations.getConversation(await getDb(), conversationId);
  const fromSeq = (await lastUserSeqs(await getDb(), conversationId, turns))[0];
  if (fromSeq == null) throw new AppError("invalid_input", "There is no turn to remove.");
  return rewindLocked(conversationId, fromSeq);
}

/**
 * Editing a past user message rewinds to it (the old text and everything after stay in
 * the database, hidden) and returns the new content for the caller to send as a turn.
 */
export async function prepareEdit(input: unknown): Promise<{ conversationId: string; content: string }> {
  const { conversationId, seq, content } = parse(editMessageInput, input);
  const original = await getMessage(await getDb(), conversationId, seq);
  if (original.role !== "user") throw new AppError("invalid_input", "Only your own messages can be edited.");
  await rewindLocked(conversationId, seq);
  return { conversationId, content };
}

export type CompactResult = {
  compactions: CompactionView[];
  failed: AttemptView[];
  proposal: { summary: string; fromSeq: number; toSeq: number } | null;
};

function compactResult(applied: AppliedChange): CompactResult {
  return {
    compactions: applied.compactions,
    failed: applied.attempts.filter((a) => a.outcome !== "applied").map((a) => attemptRecordToView(a)),
    proposal: null,
  };
}

/** "Compress now" and `/compact <instructions>`; with `preview` it only proposes a summary. */
export async function compactNow(input: unknown): Promise<CompactResult> {
  const { conversationId, instructions, preview } = parse(compactInput, input);
  const options = { ...(instructions ? { instructions } : {}), ...(preview ? { preview } : {}) };
  const settings = await readSettings(await getDb());
  if (preview) {
    const transcript = await activeTranscript(conversationId);
    const result = await compressionManager().compactNow(transcript, settings, options);
    return {
      compactions: [],
      failed: result.attempts.filter((a) => a.outcome !== "applied").map((a) => attemptRecordToView(a)),
      proposal: result.proposal
        ? { summary: result.proposal.summary, fromSeq: result.proposal.fromSeq, toSeq: result.proposal.toSeq }
        : null,
    };
  }
  return compactResult(
    await withTranscript(conversationId, settings, (transcript) => compressionManager().compactNow(transcript, settings, options)),
  );
}

/** Applies a previewed (and possibly edited) summary. */
export async function applyProposal(input: unknown): Promise<CompactResult> {
  const { conversationId, summary, fromSeq, toSeq, instructions } = parse(applyProposalInput, input);
  const settings = await readSettings(await getDb());
  return compactResult(
    await withTranscript(conversationId, settings, (transcript) =>
      compressionManager().applyProvided(
        transcript,
        { summary, trigger: "manual", fromSeq, toSeq, ...(instructions ? { instructions } : {}) },
        settings,
      ),
    ),
  );
}

export async function getSettings(): Promise<CompressionSettings> {
  return readSettings(await getDb());
}

/** Validates every field (and the relations between them) before anything is stored. */
export async function saveSettings(input: unknown, knownModels?: string[] | null): Promise<CompressionSettings> {
  const settings = parse(compressionSettingsSchema, input);
  if (settings.summaryModel && knownModels && !knownModels.includes(settings.summaryModel)) {
    throw new AppError("invalid_input", `summaryModel: the endpoint does not offer a model named "${settings.summaryModel}".`, {
      summaryModel: [`Unknown model "${settings.summaryModel}".`],
    });
  }
  return writeSettings(await getDb(), settings);
}

export async function modelInfo() {
  const endpoint = await getModelEndpoint();
  return { demo: endpoint.demo, defaultModel: defaultModel(), models: await listModels() };
}

/** For pages, which render without it: null when the model endpoint cannot be set up. */
export async function modelInfoIfAvailable() {
  try {
    return await modelInfo();
  } catch {
    return null;
  }
}

/**
 * Validates a turn and checks the conversation exists before anything streams, so a
 * bad request is refused with a proper error instead of a broken stream.
 */
export async function startTurn(input: unknown, signal?: AbortSignal): Promise<AsyncGenerator<TurnEvent>> {
  const request = parse(turnInput, input);
  await conversations.getConversation(await getDb(), request.conversationId);
  if ("retry" in request) return runTurn({ conversationId: request.conversationId, ...(signal ? { signal } : {}) });
  if ("editSeq" in request) {
    const edit = await prepareEdit({ conversationId: request.conversationId, seq: request.editSeq, content: request.content });
    return runTurn({ ...edit, ...(signal ? { signal } : {}) });
  }
  return runTurn({ conversationId: request.conversationId, content: request.content, ...(signal ? { signal } : {}) });
}
