// Every user-facing operation, once. Server actions (app/actions.ts) and the JSON
// API (app/api/**) are thin shells around these: they validate with the schemas in
// ./inputs and translate AppError into a result or an HTTP status.
// Every user-facing operation, once. Server actions (app/actions.ts) and the JSON API
// (app/api/**) are thin shells around these: they resolve the signed-in user
// (lib/auth/current-user.ts), pass it as `actor`, and translate AppError into a result
// or an HTTP status. Inputs are validated here with the schemas in ./inputs; every
// database call names the actor, so another user's ids answer "not found".
import { z } from "zod";
import { compressionSettingsObject, compressionSettingsSchema, type CompressionSettings } from "../compression/settings";
import { getDb } from "../db/client";
import { listAttempts, loadCompactionChildren, loadTimeline } from "../db/compactions";
import * as conversations from "../db/conversations";
import { hasAccounts, readSignupsOpen, writeSignupsOpen } from "../db/instance";
import { authConfig, socialProviders } from "../auth/config";
import { signupsAllowed } from "../auth/signups";
import { appendMessages, getMessage, lastShownMessage, lastUserSeqs, setPinned, type MessageDraft } from "../db/messages";
import { rewindFrom, type BranchChange } from "../db/rewind";
import { markVersion, planVersionSwitch, replyHead, versionPlace } from "../db/versions";
import { conversationChangeState } from "../db/turn-lease";
import { searchHistory } from "../db/search";
import { exportConversation as exportDocument, exportMarkdown } from "../db/export";
import { importConversation as importDocument } from "../db/import";
import { createFromSummary, loadSummarySource, type SummarySource } from "../db/from-summary";
import { coveredPinnedMessages, pathToSeq } from "../db/tree-navigation";
import {
  readDefaults,
  readSettings,
  readUserSettings,
  updateConversationOverrides,
  writeDefaults,
  writeUserSettings,
} from "../db/settings";
import { overridesPatchSchema, type ResolvedSettings } from "../settings-layers";
import type { UserRole } from "../db/users";
import type { SessionView, TokenView, TreeOpeningView } from "../views";
import type { CreatedToken } from "../auth/tokens";
import { AppError, assertStorableText, invalidInput } from "../errors";
import { defaultModel, getModelEndpoint, listModels } from "../llm/client";
import { attemptRecordToView } from "../db/mappers";
import {
  activeTranscript,
  compressionManager,
  contextMeter,
  pendingBackgroundWork,
  withConversationLock,
  withTranscript,
  type AppliedChange,
} from "./compressor";
import {
  applyProposalInput,
  childrenInput,
  compactInput,
  createConversationInput,
  fromSummaryInput,
  editMessageInput,
  idSchema,
  pinInput,
  seqInput,
  rewindInput,
  searchInput,
  switchVersionInput,
  timelineInput,
  turnInput,
  updateConversationInput,
} from "./inputs";
import type { TurnEvent } from "./events";
import { countMessageSend, sendBucket } from "./send-limit";
import { runTurn } from "./turn";
import { openTurnGate, type TurnGate } from "./turn-gate";
import { continueReply } from "./continue-reply";
import { countMessageTokensAsync } from "../llm/token-pool";
import { stopTurnsEverywhere } from "./running-turns";
import type { ActivityView, AttemptView, CompactionView, SearchHit } from "../views";
import { span, spanSync } from "../log/timing";

/** Who is asking: resolved once per request by lib/auth/current-user.ts. */
export type Actor = { id: string; role: UserRole };

export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInput(result.error);
  assertStorableText(result.data);
  return result.data;
}

function assertAdmin(actor: Actor): void {
  if (actor.role !== "admin") throw new AppError("forbidden", "Only the admin can do this.");
}

export async function createConversation(actor: Actor, input: unknown) {
  const { title, model, systemPrompt } = parse(createConversationInput, input ?? {});
  return conversations.createConversation(await getDb(), actor.id, {
    title: title ?? conversations.DEFAULT_TITLE,
    model: model ?? defaultModel(),
    systemPrompt: systemPrompt ?? "",
  });
}

export async function listConversations(actor: Actor) {
  return conversations.listConversations(await getDb(), actor.id);
}

export async function getConversation(actor: Actor, id: unknown) {
  return conversations.getConversation(await getDb(), actor.id, parse(idSchema, id));
}

export async function updateConversation(actor: Actor, input: unknown) {
  const { conversationId, ...patch } = parse(updateConversationInput, input);
  return conversations.updateConversation(await getDb(), actor.id, conversationId, patch);
}

export async function deleteConversation(actor: Actor, id: unknown) {
  await conversations.deleteConversation(await getDb(), actor.id, parse(idSchema, id));
}

export async function timeline(actor: Actor, input: unknown) {
  const { conversationId, beforeSeq, limit } = parse(timelineInput, input);
  return loadTimeline(await getDb(), actor.id, conversationId, { limit, ...(beforeSeq ? { beforeSeq } : {}) });
}

export async function compactionChildren(actor: Actor, input: unknown) {
  const { compactionId, afterSeq, limit } = parse(childrenInput, input);
  return loadCompactionChildren(await getDb(), actor.id, compactionId, { limit, ...(afterSeq != null ? { afterSeq } : {}) });
}

/** Children pages sent with a path: at most the size of the timeline's own pages. */
const OPENING_PAGE_SIZE = 50;
/** Originals sent past the way down at each level; the rest loads as the reader scrolls to it. */
const OPENING_MARGIN = 8;

/**
 * The compactions to open, outermost first, to reach message #seq ("Go to #n", search
 * hits, links), each with a first page of what it replaced that reaches the next step:
 * one request opens the whole way down, where opening level by level took one round
 * trip per level. Pages stop a few originals past the way down, so a chain 22 levels
 * deep does not put every message under it on the page at once.
 */
export async function treePath(actor: Actor, input: unknown): Promise<TreeOpeningView> {
  const { conversationId, seq } = parse(seqInput, input);
  const db = await getDb();
  const found = await pathToSeq(db, actor.id, conversationId, seq);
  const loaded = await Promise.all(
    found.path.map((step, index) => {
      // Originals before the next step number at most its distance from this block's start.
      const next = found.path[index + 1]?.fromSeq ?? seq;
      const limit = Math.min(OPENING_PAGE_SIZE, next - step.fromSeq + OPENING_MARGIN);
      return loadCompactionChildren(db, actor.id, step.id, { limit });
    }),
  );
  return { ...found, pages: Object.fromEntries(found.path.map((step, index) => [step.id, loaded[index]!])) };
}

/** Pinned originals hidden under top-level compactions, shown beside the block that covers them. */
export async function coveredPinned(actor: Actor, conversationId: unknown) {
  return coveredPinnedMessages(await getDb(), actor.id, parse(idSchema, conversationId));
}

/** The Activity panel: compaction attempts and the background compaction not finished yet. */
export async function attempts(actor: Actor, conversationId: unknown): Promise<ActivityView> {
  const id = parse(idSchema, conversationId);
  // listAttempts checks ownership first, so another user's id never reaches the queue.
  const attempts = await listAttempts(await getDb(), actor.id, id);
  return { background: await pendingBackgroundWork(id), attempts };
}

export const exportFormatSchema = z.enum(["json", "markdown"], { message: 'Choose format "json" or "markdown".' });

/** One owned conversation as a downloadable file: the JSON export or its Markdown rendering. */
export async function exportConversation(
  actor: Actor,
  input: unknown,
): Promise<{ filename: string; contentType: string; body: string }> {
  const { conversationId, format } = parse(z.object({ conversationId: idSchema, format: exportFormatSchema.default("json") }), input);
  const doc = await exportDocument(await getDb(), actor.id, conversationId);
  const base = doc.conversation.title.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "").slice(0, 60) || "conversation";
  return format === "json"
    ? { filename: `${base}.strata.json`, contentType: "application/json; charset=utf-8", body: JSON.stringify(doc, null, 2) }
    : { filename: `${base}.md`, contentType: "text/markdown; charset=utf-8", body: await exportMarkdown(doc) };
}

/**
 * A JSON export already in memory, stored as a new conversation of the actor (one
 * transaction), for scripts and tests; uploads go through ./imports.ts, which streams them.
 */
export async function importConversation(actor: Actor, input: unknown) {
  // Checked before it is serialized: JSON.stringify recurses, and a deep value would exhaust the stack.
  assertStorableText(input, "The file cannot be imported: ");
  return importDocument(await getDb(), actor.id, [new TextEncoder().encode(JSON.stringify(input))]);
}

/**
 * The first message of a conversation continued from a summary: the model reads it as
 * the context carried over (a user message, so it is shown, compressed and exported like
 * any other), and its header says where it came from.
 */
export function carriedOverText(source: Pick<SummarySource, "title" | "kind" | "level" | "fromSeq" | "toSeq" | "summary">): string {
  const what = source.kind === "truncation" ? "Note on" : `Summary (level ${source.level}) of`;
  return `Continued from the conversation “${source.title}”. ${what} its messages ${source.fromSeq}–${source.toSeq}:\n\n${source.summary}`;
}

const PINNED_ROLE_LABELS: Record<string, string> = { user: "User", assistant: "Assistant", tool: "Tool result", system: "System" };

/** The originals pinned inside the summary's range, verbatim, as one message that stays pinned; null when none were. */
export function carriedPinnedText(source: Pick<SummarySource, "title" | "pinned">): string | null {
  if (source.pinned.length === 0) return null;
  const entries = source.pinned.map((m) => `[${PINNED_ROLE_LABELS[m.role] ?? m.role} #${m.seq}]\n${m.content}`);
  return `Messages pinned in “${source.title}”, carried over verbatim:\n\n${entries.join("\n\n")}`;
}

/** "New conversation from this summary": same model, system prompt and overrides; the summary as its first context, pinned originals beside it. */
export async function conversationFromSummary(actor: Actor, input: unknown) {
  const { compactionId } = parse(fromSummaryInput, input);
  const db = await getDb();
  const source = await loadSummarySource(db, actor.id, compactionId);
  const content = carriedOverText(source);
  const pinned = carriedPinnedText(source);
  return createFromSummary(
    db,
    actor.id,
    source,
    { title: `From: ${source.title}`.slice(0, 200), content, tokenCount: await countMessageTokensAsync({ role: "user", content }) },
    pinned ? { content: pinned, tokenCount: await countMessageTokensAsync({ role: "user", content: pinned }) } : null,
  );
}

/** The user's messages and summaries matching a query, across conversations or in one. */
export async function search(actor: Actor, input: unknown): Promise<SearchHit[]> {
  const { q, conversationId, limit } = parse(searchInput, input);
  const db = await getDb();
  if (conversationId) await conversations.assertOwnsConversation(db, actor.id, conversationId);
  return searchHistory(db, actor.id, q, { limit, ...(conversationId ? { conversationId } : {}) });
}

export async function pinMessage(actor: Actor, input: unknown) {
  const { conversationId, seq, pinned } = parse(pinInput, input);
  return setPinned(await getDb(), actor.id, conversationId, seq, pinned);
}

export async function meter(actor: Actor, conversationId: unknown) {
  return contextMeter(actor.id, parse(idSchema, conversationId));
}

/** What an open tab polls to notice messages, compactions and turns from elsewhere (another tab, another process). */
export async function changeState(actor: Actor, conversationId: unknown) {
  return conversationChangeState(await getDb(), actor.id, parse(idSchema, conversationId));
}

export async function stop(actor: Actor, conversationId: unknown): Promise<{ stopped: number }> {
  const id = parse(idSchema, conversationId);
  await conversations.assertOwnsConversation(await getDb(), actor.id, id);
  return { stopped: await stopTurnsEverywhere(id) };
}

function rewindPlanner() {
  const manager = compressionManager();
  return manager.planRewind.bind(manager);
}

/**
 * Hides messages from `fromSeq` on (keeping or showing a version's branch, see
 * lib/db/versions.ts). Holds the conversation's compression lock so no compaction of
 * those messages is being prepared meanwhile (one that was is refused at save time by
 * the history version).
 */
function rewindLocked(actor: Actor, conversationId: string, fromSeq: number, branch: BranchChange = {}) {
  return withConversationLock(conversationId, async () =>
    rewindFrom(await getDb(), actor.id, conversationId, fromSeq, rewindPlanner(), branch),
  );
}

/** Removes the last `turns` user turns (and everything after them) from the conversation. */
export async function rewind(actor: Actor, input: unknown) {
  const { conversationId, turns } = parse(rewindInput, input);
  await conversations.assertOwnsConversation(await getDb(), actor.id, conversationId);
  const fromSeq = (await lastUserSeqs(await getDb(), actor.id, conversationId, turns))[0];
  if (fromSeq == null) throw new AppError("invalid_input", "There is no turn to remove.");
  return rewindLocked(actor, conversationId, fromSeq);
}

/**
 * Editing a past user message rewinds to it (the old text and everything after stay in
 * the database, kept as that version's branch) and returns the new content for the
 * caller to send as a turn, as a new version of the edited message's place.
 */
export async function prepareEdit(
  actor: Actor,
  input: unknown,
): Promise<{ conversationId: string; content: string; versionOf: string }> {
  const { conversationId, seq, content } = parse(editMessageInput, input);
  const db = await getDb();
  const original = await getMessage(db, actor.id, conversationId, seq);
  if (original.role !== "user") throw new AppError("invalid_input", "Only your own messages can be edited.");
  const place = await versionPlace(db, actor.id, conversationId, original.id);
  await rewindLocked(actor, conversationId, seq, { keepAs: original.id });
  return { conversationId, content, versionOf: place.root };
}

/**
 * Shows another version of a message (a reply or an edited message of the user's): the
 * branch shown from that place on is kept for its version and the chosen version's
 * branch comes back, as it was left. Compactions over the swapped messages are undone
 * by the rewind. Not while a turn runs (the turn gate), since it changes the context.
 */
export async function switchVersion(actor: Actor, input: unknown): Promise<{ switched: boolean }> {
  const { conversationId, messageId } = parse(switchVersionInput, input);
  const gate = await openTurnGate(actor.id, conversationId);
  try {
    const plan = await planVersionSwitch(await getDb(), actor.id, conversationId, messageId);
    if (plan.kind === "shown") return { switched: false };
    await rewindLocked(actor, conversationId, plan.fromSeq, { keepAs: plan.current, show: plan.target });
    return { switched: true };
  } finally {
    await gate.close();
  }
}

/**
 * A regenerated reply's events, with its first stored message recorded as a new version
 * of the reply it replaces. When nothing was stored (the model failed or was stopped
 * before any text), the previous reply is shown again before the gate opens.
 */
async function regenerate(
  actor: Actor,
  conversationId: string,
  seq: number,
  gate: TurnGate,
  runReply: (gate: TurnGate) => AsyncGenerator<TurnEvent>,
) {
  const db = await getDb();
  const head = await replyHead(db, actor.id, conversationId, seq);
  const root = head.versionOf ?? head.id;
  await rewindLocked(actor, conversationId, head.seq, { keepAs: head.id });
  let stored = false;
  const events = runReply({
    ...gate,
    async close() {
      try {
        if (!stored) await rewindLocked(actor, conversationId, head.seq, { show: head.id });
      } finally {
        await gate.close();
      }
    },
  });
  return (async function* () {
    for await (const event of events) {
      if (event.type === "message" && event.message.role === "assistant" && !stored) {
        stored = true;
        await markVersion(db, actor.id, conversationId, event.message.id, root);
      }
      yield event;
    }
  })();
}

/** Continue a stopped reply: only the conversation's last shown message, while stopped. */
async function continueStopped(actor: Actor, conversationId: string, seq: number) {
  const last = await lastShownMessage(await getDb(), actor.id, conversationId);
  if (!last || last.seq !== seq || last.role !== "assistant" || last.status !== "stopped") {
    throw new AppError("invalid_input", "Only the last reply, when it was stopped, can be continued.");
  }
  return { messageId: last.id, partial: last.content };
}

/** Opens the turn gate for work that checks more before it streams; the gate is closed if that fails. */
async function gated(actor: Actor, conversationId: string, start: (gate: TurnGate) => Promise<AsyncGenerator<TurnEvent>>) {
  const gate = await openTurnGate(actor.id, conversationId);
  try {
    return await start(gate);
  } catch (error) {
    await gate.close();
    throw error;
  }
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
export async function compactNow(actor: Actor, input: unknown): Promise<CompactResult> {
  const { conversationId, instructions, preview } = parse(compactInput, input);
  const options = { ...(instructions ? { instructions } : {}), ...(preview ? { preview } : {}) };
  const { settings } = await readSettings(await getDb(), actor.id, conversationId);
  // Counted like a message (a summary costs as much as a reply); the settings read first
  // answers "not found" for another user's conversation.
  await countMessageSend(actor.id);
  if (preview) {
    const transcript = await activeTranscript(actor.id, conversationId);
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
    await withTranscript(actor.id, conversationId, settings, (transcript) => compressionManager().compactNow(transcript, settings, options)),
  );
}

/** Applies a previewed (and possibly edited) summary. */
export async function applyProposal(actor: Actor, input: unknown): Promise<CompactResult> {
  const { conversationId, summary, fromSeq, toSeq, instructions } = parse(applyProposalInput, input);
  const { settings } = await readSettings(await getDb(), actor.id, conversationId);
  return compactResult(
    await withTranscript(actor.id, conversationId, settings, (transcript) =>
      compressionManager().applyProvided(
        transcript,
        { summary, trigger: "manual", fromSeq, toSeq, ...(instructions ? { instructions } : {}) },
        settings,
      ),
    ),
  );
}

/** The user's own settings: what their conversations start from. */
export async function getSettings(actor: Actor): Promise<CompressionSettings> {
  return (await readUserSettings(await getDb(), actor.id)).settings;
}

function assertKnownSummaryModel(model: string | null | undefined, knownModels?: string[] | null): void {
  if (model && knownModels && !knownModels.includes(model)) {
    throw new AppError("invalid_input", `summaryModel: the endpoint does not offer a model named "${model}".`, {
      summaryModel: [`Unknown model "${model}".`],
    });
  }
}

/** What the settings page edits, and the defaults its "reset" returns to. */
export async function settingsForm(actor: Actor): Promise<{ settings: CompressionSettings; defaults: CompressionSettings }> {
  const db = await getDb();
  const [user, defaults] = await Promise.all([readUserSettings(db, actor.id), readDefaults(db)]);
  return { settings: user.settings, defaults: defaults.settings };
}

/** For the signed-out pages: whether a visitor may sign up, whether theirs would be the first account, which OAuth providers are set up. */
export async function signupState(): Promise<{ allowed: boolean; first: boolean; providers: string[] }> {
  const db = await getDb();
  const config = authConfig();
  const [first, allowed] = await Promise.all([hasAccounts(db).then((any) => !any), signupsAllowed(db, config)]);
  return { allowed, first, providers: Object.keys(socialProviders(config)) };
}

/** What the admin page edits: the defaults and whether visitors may sign up. */
export async function adminSettings(actor: Actor): Promise<{ defaults: CompressionSettings; signupsOpen: boolean }> {
  assertAdmin(actor);
  const db = await getDb();
  const [defaults, signupsOpen] = await Promise.all([readDefaults(db), readSignupsOpen(db)]);
  return { defaults: defaults.settings, signupsOpen };
}

/** Every field and the relations between them, and a summary model the endpoint offers. */
function parseSettings(input: unknown, knownModels?: string[] | null): CompressionSettings {
  const settings = parse(compressionSettingsSchema, input);
  assertKnownSummaryModel(settings.summaryModel, knownModels);
  return settings;
}

/** Validates every field before anything is stored; applies from the user's next turn. */
export async function saveSettings(actor: Actor, input: unknown, knownModels?: string[] | null): Promise<CompressionSettings> {
  return (await writeUserSettings(await getDb(), actor.id, parseSettings(input, knownModels))).settings;
}

/**
 * A partial update (PUT /api/settings with some fields): the named fields change, every
 * other one keeps its stored value; the result is validated as a whole.
 */
export async function updateSettings(actor: Actor, patch: unknown, knownModels?: string[] | null): Promise<CompressionSettings> {
  const fields = parse(z.record(z.string(), z.unknown(), { message: "Send the settings as a JSON object." }), patch);
  // The names as sent (a parsed record drops "__proto__"), each an own setting: `in` would
  // also accept what every object inherits ("constructor", "toString").
  const unknown = Object.keys(patch as object).filter((name) => !Object.hasOwn(compressionSettingsObject.shape, name));
  if (unknown.length) {
    throw new AppError("invalid_input", `Unknown setting${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}.`, Object.fromEntries(unknown.map((name) => [name, ["Unknown setting."]])));
  }
  const current = (await readUserSettings(await getDb(), actor.id)).settings;
  return saveSettings(actor, { ...current, ...fields }, knownModels);
}

export async function saveDefaults(actor: Actor, input: unknown, knownModels?: string[] | null): Promise<CompressionSettings> {
  assertAdmin(actor);
  return (await writeDefaults(await getDb(), parseSettings(input, knownModels))).settings;
}

export async function setSignupsOpen(actor: Actor, open: unknown): Promise<{ open: boolean }> {
  assertAdmin(actor);
  const value = parse(z.boolean({ message: "Say true or false." }), open);
  await writeSignupsOpen(await getDb(), value);
  return { open: value };
}

/** The settings a conversation runs with, and where each value comes from. */
export async function conversationSettings(actor: Actor, conversationId: unknown): Promise<ResolvedSettings> {
  return readSettings(await getDb(), actor.id, parse(idSchema, conversationId));
}

/** Sets (a value) or removes (null) a conversation's overrides; applies from its next turn. */
export async function updateConversationSettings(actor: Actor, input: unknown, knownModels?: string[] | null): Promise<ResolvedSettings> {
  const { conversationId, ...patch } = parse(overridesPatchSchema.extend({ conversationId: idSchema }), input);
  assertKnownSummaryModel(patch.summaryModel, knownModels);
  return updateConversationOverrides(await getDb(), actor.id, conversationId, patch);
}

// Loaded when used: processes that only chat (the crash test's children, benchmarks)
// need not load the auth library.
const tokenModule = () => import("../auth/tokens");

export async function listTokens(actor: Actor): Promise<TokenView[]> {
  return (await tokenModule()).tokensOf(actor.id);
}

/** A new personal API token; its value is in the result this once. */
export async function createToken(actor: Actor, input: unknown): Promise<CreatedToken> {
  const tokens = await tokenModule();
  const { name, expiresInDays } = parse(tokens.newTokenSchema, input);
  return tokens.createToken(actor.id, name, expiresInDays);
}

const recordIdSchema = z.string().min(1).max(100);

export async function revokeToken(actor: Actor, tokenId: unknown): Promise<void> {
  await (await tokenModule()).revoke(actor.id, parse(recordIdSchema, tokenId));
}

export async function revokeAllTokens(actor: Actor): Promise<number> {
  return (await tokenModule()).revokeAll(actor.id);
}

const sessionModule = () => import("../auth/sessions");

/** The actor's sessions; `requestHeaders` tell which one is asking. */
export async function listSessions(actor: Actor, requestHeaders: Headers): Promise<SessionView[]> {
  return (await sessionModule()).sessionsOf(actor.id, requestHeaders);
}

export async function revokeSession(actor: Actor, sessionId: unknown): Promise<void> {
  await (await sessionModule()).endSession(actor.id, parse(recordIdSchema, sessionId));
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
export async function startTurn(actor: Actor, input: unknown, signal?: AbortSignal): Promise<AsyncGenerator<TurnEvent>> {
  const request = spanSync("input", () => parse(turnInput, input));
  const { conversationId } = request;
  const base = { userId: actor.id, conversationId, ...(signal ? { signal } : {}) };
  // One turn at a time per conversation: a second send while one runs is refused
  // ("busy", 409). A new message is stored in the statement that takes the gate, which
  // also counts the send (429 past the limit), checks the owner (not found otherwise)
  // and reads the turn's settings snapshot.
  if (!("retry" in request || "editSeq" in request || "regenerateSeq" in request || "continueSeq" in request)) {
    const draft: MessageDraft = { role: "user", content: request.content, tokenCount: await countMessageTokensAsync({ role: "user", content: request.content }) };
    const gate = await span("gate", () => openTurnGate(actor.id, conversationId, draft, sendBucket(actor.id) ?? undefined));
    return runTurn({ ...base, gate });
  }
  // The turn's settings snapshot, read here because it also checks that the conversation
  // is the user's (not found otherwise) before anything streams.
  const { settings } = await span("settings", async () => readSettings(await getDb(), actor.id, conversationId));
  await span("sendLimit", () => countMessageSend(actor.id));
  const withSettings = { ...base, settings };
  if ("retry" in request) return runTurn({ ...withSettings, gate: await openTurnGate(actor.id, conversationId) });
  if ("editSeq" in request) {
    return gated(actor, conversationId, async (gate) => {
      const edit = await prepareEdit(actor, { conversationId, seq: request.editSeq, content: request.content });
      const [userMessage] = await appendMessages(await getDb(), actor.id, conversationId, [
        { role: "user", content: edit.content, tokenCount: await countMessageTokensAsync({ role: "user", content: edit.content }), versionOf: edit.versionOf },
      ]);
      return runTurn({ ...withSettings, gate: { ...gate, userMessage: userMessage ?? null } });
    });
  }
  if ("regenerateSeq" in request) {
    return gated(actor, conversationId, (gate) =>
      regenerate(actor, conversationId, request.regenerateSeq, gate, (versionGate) => runTurn({ ...withSettings, gate: versionGate })),
    );
  }
  return gated(actor, conversationId, async (gate) =>
    continueReply({ ...withSettings, ...(await continueStopped(actor, conversationId, request.continueSeq)), gate }),
  );
}
