// Starting a turn: a new message, a retry, an edit, a regenerated reply, or the
// continuation of a stopped one.
import { getDb } from "../db/client";
import { appendWithFiles, lastShownMessage } from "../db/messages";
import { readSettings } from "../db/settings";
import { AppError } from "../errors";
import { turnInput, type TurnRequest } from "./turn-request";
import { publishedTurn } from "./live-turns";
import type { TurnEvent } from "./events";
import { countMessageSend, sendBucket } from "./send-limit";
import { runTurn } from "./turn";
import { openTurnGate, openTurnGateWithMessage, type TurnGate } from "./concurrency";
import { continueReply } from "./continue-reply";
import { countMessageTokensAsync } from "../llm/token-pool";
import { span, spanSync } from "../log/timing";
import { type Actor, parse } from "./actor";
import { regenerate, prepareEdit } from "./version-ops";
import { cutNotice, prepareAttachments } from "./attachment-ops";

/** Continue a stopped reply: only the conversation's last shown message, while stopped. */
async function continueStopped(actor: Actor, conversationId: string, seq: number) {
  const last = await lastShownMessage(await getDb(), actor.id, conversationId);
  if (!last || last.seq !== seq || last.role !== "assistant" || last.status !== "stopped") {
    throw new AppError("invalid_input", "Only the last reply, when it was stopped, can be continued.");
  }
  return { messageId: last.id, partial: last.content };
}

/** Ties the uploads to the stored message; the gate is closed if that fails (the message keeps their text). */
async function attachStored(gate: TurnGate, attach: () => Promise<void>): Promise<void> {
  try {
    await attach();
  } catch (error) {
    await gate.close();
    throw error;
  }
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

/**
 * Validates a turn and checks the conversation exists before anything streams, so a
 * bad request is refused with a proper error instead of a broken stream.
 */
export async function startTurn(actor: Actor, input: unknown, signal?: AbortSignal): Promise<AsyncGenerator<TurnEvent>> {
  const request = spanSync("input", () => parse(turnInput, input));
  // Other open views of the conversation can watch the turn (lib/chat/live-turns.ts).
  return publishedTurn(request.conversationId, await openTurn(actor, request, signal));
}

async function* afterNotices(notices: string[], turn: AsyncGenerator<TurnEvent>): AsyncGenerator<TurnEvent> {
  for (const message of notices) yield { type: "notice", message };
  yield* turn;
}

async function openTurn(actor: Actor, request: TurnRequest, signal?: AbortSignal): Promise<AsyncGenerator<TurnEvent>> {
  const { conversationId } = request;
  const base = { userId: actor.id, conversationId, ...(signal ? { signal } : {}) };
  // One turn at a time per conversation: a second send while one runs is refused
  // ("busy", 409). A new message is stored in the statement that takes the gate, which
  // also counts the send (429 past the limit), checks the owner (not found otherwise)
  // and reads the turn's settings snapshot.
  if (request.kind === "send") {
    // Attached files' text is part of the message itself (lib/attachments/compose.ts).
    const attached = request.attachmentIds?.length ? await prepareAttachments(actor, conversationId, request.content, request.attachmentIds) : null;
    const content = attached?.content ?? request.content;
    // An image is counted as what it costs a vision model, beside the line that stands for it in the text.
    const tokenCount = (await countMessageTokensAsync({ role: "user", content })) + (attached?.imageTokens ?? 0);
    const draft = { role: "user" as const, content, tokenCount };
    // A first message with files is named from what was typed (the first file's name when nothing was), never from a file's text.
    const titleFrom = attached ? request.content.trim() || attached.firstName : undefined;
    const { gate, stored } = await span("gate", () => openTurnGateWithMessage(actor.id, conversationId, draft, sendBucket(actor.id), titleFrom));
    if (attached) await attachStored(gate, () => attached.attach(stored.message.id));
    const { settings, ...answering } = stored;
    const turn = runTurn({ ...base, gate, settings, answering: { kind: "sent", ...answering } });
    return attached?.cut.length ? afterNotices(attached.cut.map(cutNotice), turn) : turn;
  }
  // The turn's settings snapshot, read here because it also checks that the conversation
  // is the user's (not found otherwise) before anything streams.
  const { settings } = await span("settings", async () => readSettings(await getDb(), actor.id, conversationId));
  await span("sendLimit", () => countMessageSend(actor.id));
  const withSettings = { ...base, settings };
  switch (request.kind) {
    case "retry":
      return runTurn({ ...withSettings, gate: await openTurnGate(actor.id, conversationId), answering: { kind: "unanswered" } });
    case "edit":
      return gated(actor, conversationId, async (gate) => {
        const edit = await prepareEdit(actor, { conversationId, seq: request.editSeq, content: request.content });
        // A kept image is counted again beside its line, as at the first send; its row is copied with the message.
        const tokenCount = (await countMessageTokensAsync({ role: "user", content: edit.content })) + edit.kept.imageTokens;
        const draft = { role: "user" as const, content: edit.content, tokenCount, versionOf: edit.versionOf };
        const userMessage = await appendWithFiles(await getDb(), actor.id, conversationId, draft, edit.kept.files);
        return runTurn({ ...withSettings, gate, answering: { kind: "edited", message: userMessage } });
      });
    case "regenerate":
      return gated(actor, conversationId, (gate) =>
        regenerate(actor, conversationId, request.regenerateSeq, gate, (versionGate) => runTurn({ ...withSettings, gate: versionGate, answering: { kind: "unanswered" } })),
      );
    case "continue":
      return gated(actor, conversationId, async (gate) =>
        continueReply({ ...withSettings, ...(await continueStopped(actor, conversationId, request.continueSeq)), gate }),
      );
  }
}
