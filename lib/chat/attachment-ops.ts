// Attachments: upload (sniff, extract once, count), the list the chat shows as chips,
// download of the original, removal before sending, and what a send does with them.
import { z } from "zod";
import { attachmentBlock, composeContent } from "../attachments/compose";
import { sniffAttachment } from "../attachments/kinds";
import { attachmentIdsSchema, attachmentNameSchema, maxAttachmentBytes, tooLargeMessage } from "../attachments/limits";
import { pdfText } from "../attachments/pdf";
import { getDb } from "../db/client";
import {
  attachmentFile,
  attachToMessage,
  createAttachment,
  deleteStaleUploads,
  deleteUnsentAttachment,
  listSentAttachments,
  unsentAttachments,
  type AttachmentView,
} from "../db/attachments";
import { AppError } from "../errors";
import { readAtMost } from "../http/bounded-body";
import { countTextTokensAsync } from "../llm/token-pool";
import { logger } from "../log/logger";
import { type Actor, parse } from "./actor";
import { idSchema } from "./inputs";

export type { AttachmentView } from "../db/attachments";

const uploadInput = z.object({ conversationId: idSchema, name: attachmentNameSchema });

/** The text a file gives the model, or why it gives none. */
async function readableText(name: string, bytes: Uint8Array): Promise<{ mediaType: string; text: string }> {
  const sniffed = sniffAttachment(name, bytes);
  switch (sniffed.kind) {
    case "unsupported":
      throw new AppError("invalid_input", sniffed.reason);
    case "image":
      throw new AppError("invalid_input", `“${name}” is an image: Strata does not send images to the model yet. Attach text, code, CSV, JSON or a PDF.`);
    case "pdf": {
      const extracted = await pdfText(name, bytes);
      if (!extracted.ok) throw new AppError("invalid_input", extracted.reason);
      return { mediaType: sniffed.mediaType, text: extracted.text };
    }
    case "text":
      return { mediaType: sniffed.mediaType, text: new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "") };
  }
}

/**
 * Stores an upload for a conversation of the actor's. The body is read up to
 * STRATA_ATTACHMENT_MAX_BYTES and no further (413, nothing stored, past it); an empty
 * file or one Strata cannot read is refused with a clear reason. A PDF's text is
 * extracted here, once; the token count is that of the block the message will carry.
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
  const { mediaType, text } = await readableText(name, bytes);
  const tokenCount = await countTextTokensAsync(attachmentBlock({ name, text }));
  const db = await getDb();
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

/** A message about to be sent with attachments: its content as the model will see it, and how to tie them to it once stored. */
export type PreparedAttachments = { content: string; attach: (messageId: string) => Promise<void> };

/**
 * Checks the uploads (the actor's, this conversation's, not sent yet: not found
 * otherwise) and appends their text to the typed content.
 */
export async function prepareAttachments(actor: Actor, conversationId: string, typed: string, ids: unknown): Promise<PreparedAttachments> {
  const list = parse(attachmentIdsSchema, ids);
  const db = await getDb();
  const rows = await unsentAttachments(db, actor.id, conversationId, list);
  const { content, starts } = composeContent(
    typed,
    rows.map((row) => ({ name: row.name, text: row.text ?? "" })),
  );
  return {
    content,
    attach: (messageId) => attachToMessage(db, actor.id, messageId, rows.map((row, index) => ({ id: row.id, contentStart: starts[index] ?? 0 }))),
  };
}
