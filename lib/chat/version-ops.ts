// Versions and rewinds: removing turns, editing a past message, switching and
// regenerating versions of a reply.
import * as conversations from "../db/conversations";
import { getDb } from "../db/client";
import { getMessage, lastUserSeqs } from "../db/messages";
import { rewindFrom, type BranchChange } from "../db/rewind";
import { markVersion, planVersionSwitch, replyHead, versionPlace } from "../db/versions";
import { AppError } from "../errors";
import { compressionManager } from "./compressor";
import { editMessageInput, rewindInput, switchVersionInput } from "./inputs";
import type { TurnEvent } from "./events";
import { openTurnGate, withCompactionStoppedHere, type TurnGate } from "./concurrency";
import { type Actor, parse } from "./actor";
import { filesKeptOnEdit, type KeptOnEdit } from "./attachment-ops";

function rewindPlanner() {
  const manager = compressionManager();
  return manager.planRewind.bind(manager);
}

/**
 * Hides messages from `fromSeq` on (keeping or showing a version's branch, see
 * lib/db/versions.ts). Holds the conversation's compaction lock so no compaction of
 * those messages is being prepared meanwhile (one that was is refused at save time by
 * the history version).
 */
function rewindLocked(actor: Actor, conversationId: string, fromSeq: number, branch: BranchChange = {}) {
  return withCompactionStoppedHere(conversationId, async () =>
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
 * caller to send as a turn, as a new version of the edited message's place, with the
 * files of the edited message that the new text still shows (the old version keeps its own).
 */
export async function prepareEdit(
  actor: Actor,
  input: unknown,
): Promise<{ conversationId: string; content: string; versionOf: string; kept: KeptOnEdit }> {
  const { conversationId, seq, content } = parse(editMessageInput, input);
  const db = await getDb();
  const original = await getMessage(db, actor.id, conversationId, seq);
  if (original.role !== "user") throw new AppError("invalid_input", "Only your own messages can be edited.");
  const place = await versionPlace(db, actor.id, conversationId, original.id);
  const kept = await filesKeptOnEdit(db, actor.id, original.id, content);
  await rewindLocked(actor, conversationId, seq, { keepAs: original.id });
  return { conversationId, content, versionOf: place.root, kept };
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
export async function regenerate(
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
