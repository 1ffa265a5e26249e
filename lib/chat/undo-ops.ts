// "Undo this compaction": its messages (or the summaries it merged) come back into the
// timeline and the model's next request; the record stays in the tree, marked undone.
import { z } from "zod";
import { getDb } from "../db/client";
import { compactionConversation, undoCompaction as undoStored, type UndoResult } from "../db/undo";
import { planUndo } from "../compression/undo";
import { idSchema } from "./inputs";
import { openTurnGate, withCompactionStoppedHere } from "./concurrency";
import { type Actor, parse } from "./actor";

export const undoCompactionInput = z.object({ compactionId: idSchema });

/**
 * Takes the turn gate (a turn in progress: 409 "busy", since the turn's request is built
 * from the context this changes) and the compaction lock (a background compaction here
 * is stopped first; one elsewhere that merges this record is refused at its save).
 * The restored context may exceed the threshold: that is allowed, the meter shows it and
 * the next turn compresses again (the confirmation says so).
 */
export async function undoCompaction(actor: Actor, input: unknown): Promise<UndoResult> {
  const { compactionId } = parse(undoCompactionInput, input);
  const db = await getDb();
  const conversationId = await compactionConversation(db, actor.id, compactionId);
  const gate = await openTurnGate(actor.id, conversationId);
  try {
    return await withCompactionStoppedHere(conversationId, () => undoStored(db, actor.id, compactionId, planUndo));
  } finally {
    await gate.close();
  }
}
