// The pinned list: every pinned message of a conversation, wherever it sits in the tree.
import { getDb } from "../db/client";
import { listPinned } from "../db/pinned-list";
import { idSchema } from "./inputs";
import { type Actor, parse } from "./actor";

export async function pinnedList(actor: Actor, conversationId: unknown) {
  return listPinned(await getDb(), actor.id, parse(idSchema, conversationId));
}
