// Automatic recall: before a model call, the user's message is searched for among the
// original messages that compression replaced, and the best matches that fit go into
// this turn's request (the engine places and counts the block; it is never stored).
import { recallBlock, type RecallBlock, type RecalledMessage } from "../compression/recall";
import { recallAutomatically, type CompressionSettings } from "../compression/settings";
import type { Transcript } from "../compression/types";
import { getDb } from "../db/client";
import { searchCompressed } from "../db/history";
import { tokenCounter } from "../llm/tokens";
import { compressionManager } from "./compressor";

/** Candidates read from the database at most; the block holds fewer. */
const MAX_CANDIDATES = 12;
/** Below this much room a block would hold a heading and nothing useful. */
const MIN_ROOM_TOKENS = 48;

/**
 * The block for this turn, or undefined: recall off, nothing compressed, nothing that
 * matches, or no room left under the hard limit. A long message is quoted by its
 * matching excerpt, so that one pasted page cannot take the whole block.
 */
export async function recallForTurn(userId: string, conversationId: string, transcript: Transcript, settings: CompressionSettings): Promise<RecallBlock | undefined> {
  if (!recallAutomatically(settings) || transcript.compactions.length === 0) return undefined;
  const question = transcript.messages.findLast((message) => message.role === "user");
  if (!question?.content.trim()) return undefined;
  const room = compressionManager().recallRoom(transcript, settings);
  if (room < MIN_ROOM_TOKENS) return undefined;
  // The active records name the compressed set: its word counts are kept between turns.
  const compressedSet = [...transcript.compactions, ...(transcript.clearings ?? [])].map((record) => record.id).sort().join(",");
  const hits = await searchCompressed(await getDb(), userId, conversationId, question.content, MAX_CANDIDATES, compressedSet);
  const candidates: RecalledMessage[] = hits.map((hit) => ({
    seq: hit.seq,
    role: hit.role,
    text: tokenCounter.count(hit.content) <= room / 3 ? hit.content : hit.excerpt,
  }));
  return recallBlock(candidates, room, tokenCounter) ?? undefined;
}
