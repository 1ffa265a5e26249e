// Reading a conversation's history: the timeline, what a compaction replaced, the
// way down to one message, pinned originals under summaries, and search.
import * as conversations from "../db/conversations";
import { getDb } from "../db/client";
import { loadCompactionChildren, loadTimeline } from "../db/compactions";
import { searchHistory } from "../db/search";
import { coveredPinnedMessages, pathToSeq } from "../db/tree-navigation";
import type { TreeOpeningView, SearchHit } from "../views";
import { childrenInput, idSchema, seqInput, searchInput, timelineInput } from "./inputs";
import { type Actor, parse } from "./actor";

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

/** The user's messages and summaries matching a query, across conversations or in one. */
export async function search(actor: Actor, input: unknown): Promise<SearchHit[]> {
  const { q, conversationId, limit } = parse(searchInput, input);
  const db = await getDb();
  if (conversationId) await conversations.assertOwnsConversation(db, actor.id, conversationId);
  return searchHistory(db, actor.id, q, { limit, ...(conversationId ? { conversationId } : {}) });
}
