// The images a chat request carries. Stored messages hold text only (an image is a
// line standing for it, lib/attachments/compose.ts), so the engine measures, summarizes
// and searches text; here, for a model that takes images, each user message of the
// request that has images gets their bytes beside its text. A model that does not take
// images (the conversation's model changed since) gets the line alone.
import type { BuiltRequest } from "../compression/types";
import { imagesOnMessages } from "../db/attachments";
import type { Db } from "../db/client";
import { readImageModelLists } from "../db/model-settings";
import type { WireImage } from "../llm/client";
import { modelTakesImages } from "../llm/vision";

/** Every image's stand-in starts so (imageStandIn): a request without it has no images, and costs no query. */
const STAND_IN_MARK = "[image: ";

/** The request's images by message index, or undefined when it sends none. */
export async function requestImages(
  db: Db,
  target: { userId: string; conversationId: string; model: string },
  request: Pick<BuiltRequest, "messages" | "seqs">,
): Promise<Map<number, WireImage[]> | undefined> {
  const indexBySeq = new Map<number, number>();
  request.messages.forEach((message, index) => {
    const seq = request.seqs[index];
    if (message.role === "user" && seq != null && message.content.includes(STAND_IN_MARK)) indexBySeq.set(seq, index);
  });
  if (indexBySeq.size === 0) return undefined;
  if (!modelTakesImages(target.model, await readImageModelLists(db))) return undefined;
  const images = await imagesOnMessages(db, target.userId, target.conversationId, [...indexBySeq.keys()]);
  if (images.length === 0) return undefined;
  const byIndex = new Map<number, WireImage[]>();
  for (const image of images) {
    const index = indexBySeq.get(image.seq);
    // High detail, the rule the stored counts were made with (lib/llm/image-tokens.ts).
    if (index !== undefined) (byIndex.get(index) ?? byIndex.set(index, []).get(index)!).push({ mediaType: image.mediaType, bytes: image.bytes, detail: "high" });
  }
  return byIndex;
}
