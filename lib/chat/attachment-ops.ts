// Attachments: upload (sniff, extract once, count), the list the chat shows as chips,
// download of the original, removal before sending, and what a send does with them.
import { z } from "zod";
import { composeContent, imageStandIn, type ComposedPart, type CutFile } from "../attachments/compose";
import { isImageType as isImage, sniffAttachment, type ImageMediaType } from "../attachments/kinds";
import { tooLargeMessage } from "../attachments/format";
import { attachmentIdsSchema, attachmentNameSchema, boundedImageSize, maxAttachmentBytes } from "../attachments/limits";
import { pdfText } from "../attachments/pdf";
import { keptOnEdit, type KeptFile } from "../attachments/kept";
import { getDb } from "../db/client";
import {
  attachmentFile,
  attachToMessage,
  createAttachment,
  deleteStaleUploads,
  deleteUnsentAttachment,
  filesOnMessage,
  listSentAttachments,
  unsentAttachments,
  type AttachmentView,
} from "../db/attachments";
import { AppError } from "../errors";
import { readAtMost } from "../http/bounded-body";
import { readConversationModelSettings, readImageModelLists } from "../db/model-settings";
import type { Db } from "../db/client";
import { imageTokens } from "../llm/image-tokens";
import { modelTakesImages, noImagesMessage } from "../llm/vision";
import { countTextTokensAsync } from "../llm/token-pool";
import { logger } from "../log/logger";
import { type Actor, parse } from "./actor";
import { idSchema, maxMessageChars } from "./inputs";

export type { AttachmentView } from "../db/attachments";

const uploadInput = z.object({ conversationId: idSchema, name: attachmentNameSchema });

/** What a file gives the model: its text, or for an image the line standing for it and what the image itself costs. */
type Readable = { mediaType: string; text: string; tokenCount: number };

/** Refuses an image for a conversation whose model does not take images (nothing is stored, the draft stays). */
async function assertTakesImages(db: Db, userId: string, conversationId: string, fileName: string): Promise<void> {
  const [{ model }, lists] = await Promise.all([readConversationModelSettings(db, userId, conversationId), readImageModelLists(db)]);
  if (!modelTakesImages(model, lists)) throw new AppError("invalid_input", noImagesMessage(model, fileName));
}

/** An image's stand-in and cost, after its pixel size (read from the header) is checked. */
function readableImage(name: string, mediaType: ImageMediaType, bytes: Uint8Array): Readable {
  const bounded = boundedImageSize(name, mediaType, bytes);
  if ("problem" in bounded) throw new AppError("invalid_input", bounded.problem);
  const { width, height } = bounded.size;
  return { mediaType, text: imageStandIn(name, width, height), tokenCount: imageTokens(width, height) };
}

/** The text a file gives the model, or why it gives none. */
async function readable(db: Db, userId: string, conversationId: string, name: string, bytes: Uint8Array): Promise<Readable> {
  const sniffed = sniffAttachment(name, bytes);
  // Counted as a message holds it (its start and end when it is longer than a message may be): what sending it alone costs.
  const text = async (mediaType: string, body: string) => ({ mediaType, text: body, tokenCount: await countTextTokensAsync(composeContent("", [{ kind: "text", name, text: body }], maxMessageChars()).content) });
  switch (sniffed.kind) {
    case "unsupported":
      throw new AppError("invalid_input", sniffed.reason);
    case "image":
      await assertTakesImages(db, userId, conversationId, name);
      return readableImage(name, sniffed.mediaType, bytes);
    case "pdf": {
      const extracted = await pdfText(name, bytes);
      if (!extracted.ok) throw new AppError("invalid_input", extracted.reason);
      return text(sniffed.mediaType, extracted.text);
    }
    case "text":
      return text(sniffed.mediaType, new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, ""));
  }
}

/**
 * Stores an upload for a conversation of the actor's. The body is read up to
 * STRATA_ATTACHMENT_MAX_BYTES and no further (413, nothing stored, past it); an empty
 * file or one Strata cannot read is refused with a clear reason. A PDF's text is
 * extracted here, once; the token count is that of the block the message will carry.
 * An image is bounded in pixels and refused unless the conversation's model takes
 * images; it counts what the image costs a vision model (lib/llm/image-tokens.ts).
 */
export async function uploadAttachment(
  actor: Actor,
  input: { conversationId: unknown; name: unknown; body: ReadableStream<Uint8Array> | null; declaredLength: number },
): Promise<AttachmentView> {
  const { conversationId, name } = parse(uploadInput, { conversationId: input.conversationId, name: input.name });
  const max = maxAttachmentBytes();
  if (input.declaredLength > max) throw new AppError("payload_too_large", tooLargeMessage(name, max));
  const bytes = await readAtMost(input.body, max);
  if (!bytes) throw new AppError("payload_too_large", tooLargeMessage(name, max));
  if (bytes.byteLength === 0) throw new AppError("invalid_input", `“${name}” is empty: there is nothing to attach.`);
  const db = await getDb();
  const { mediaType, text, tokenCount } = await readable(db, actor.id, conversationId, name, bytes);
  // Drafts abandoned for a day go when anyone uploads: no job needed for a table only uploads grow.
  void deleteStaleUploads(db).catch((error: unknown) => logger.warn({ err: String(error) }, "could not delete stale uploads"));
  return createAttachment(db, actor.id, conversationId, { name, mediaType, bytes, text, tokenCount });
}

export async function conversationAttachments(actor: Actor, conversationId: unknown): Promise<AttachmentView[]> {
  return listSentAttachments(await getDb(), actor.id, parse(idSchema, conversationId));
}

export async function downloadAttachment(actor: Actor, id: unknown) {
  return attachmentFile(await getDb(), actor.id, parse(idSchema, id));
}

export async function removeAttachment(actor: Actor, id: unknown): Promise<void> {
  await deleteUnsentAttachment(await getDb(), actor.id, parse(idSchema, id));
}

/**
 * A message about to be sent with attachments: its content as the model will see it,
 * what its images cost beyond that text, and how to tie the files to it once stored.
 */
export type PreparedAttachments = {
  content: string;
  imageTokens: number;
  firstName: string;
  /** Files whose text was cut from its middle to fit the message (what the user is told). */
  cut: CutFile[];
  attach: (messageId: string) => Promise<void>;
};

/**
 * Checks the uploads (the actor's, this conversation's, not sent yet: not found
 * otherwise) and appends their text to the typed content. Images are checked against
 * the conversation's model again: it may have changed since the upload.
 */
export async function prepareAttachments(actor: Actor, conversationId: string, typed: string, ids: unknown): Promise<PreparedAttachments> {
  const list = parse(attachmentIdsSchema, ids);
  const db = await getDb();
  const rows = await unsentAttachments(db, actor.id, conversationId, list);
  const firstImage = rows.find((row) => isImage(row.mediaType));
  if (firstImage) await assertTakesImages(db, actor.id, conversationId, firstImage.name);
  const parts = rows.map((row): ComposedPart => (isImage(row.mediaType) ? { kind: "image", standIn: row.text ?? `[image: ${row.name}]` } : { kind: "text", name: row.name, text: row.text ?? "" }));
  const { content, starts, cut } = composeContent(typed, parts, maxMessageChars());
  return {
    content,
    cut,
    firstName: rows[0]?.name ?? "",
    imageTokens: rows.reduce((total, row) => total + (isImage(row.mediaType) ? row.tokenCount : 0), 0),
    attach: (messageId) => attachToMessage(db, actor.id, messageId, rows.map((row, index) => ({ id: row.id, contentStart: starts[index] ?? 0 }))),
  };
}

/** What the user is told about a file whose text the message holds only the start and end of. */
export function cutNotice(file: CutFile): string {
  const count = (chars: number) => chars.toLocaleString("en-US");
  return (
    `“${file.name}” has ${count(file.totalChars)} characters of text, more than a message holds (${count(maxMessageChars())} characters in all, STRATA_MAX_MESSAGE_CHARS): ` +
    `the message keeps ${count(file.keptChars)} of them, from its start and its end, for the model; the whole file stays attached.`
  );
}

/** The files an edit keeps of the edited message's (lib/attachments/kept.ts), and what its kept images cost beyond the text. */
export type KeptOnEdit = { files: KeptFile[]; imageTokens: number };

export async function filesKeptOnEdit(db: Db, userId: string, editedId: string, content: string): Promise<KeptOnEdit> {
  const files = keptOnEdit(content, await filesOnMessage(db, userId, editedId));
  return { files, imageTokens: files.reduce((total, file) => total + file.imageTokens, 0) };
}
