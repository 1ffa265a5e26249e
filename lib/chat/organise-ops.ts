// Organising conversations: pin, archive, rename inline, the sidebar's pages, and
// deleting one message. Inputs are validated here; the database side names the owner.
import { z } from "zod";
import { getDb } from "../db/client";
import { bulkExportStream } from "../db/bulk-export";
import { deleteMessage as hideMessage, type DeletedMessages } from "../db/message-delete";
import {
  listConversationPage,
  renameConversation as renameRow,
  setConversationArchived,
  setConversationPinned,
} from "../db/organise";
import type { ConversationPage } from "../views";
import { TITLE_LIMIT } from "../db/export-format";
import { idSchema, seqInput } from "./inputs";
import { openTurnGate, withCompactionStoppedHere } from "./concurrency";
import { type Actor, parse } from "./actor";

export const pinConversationInput = z.object({ conversationId: idSchema, pinned: z.boolean({ message: "Say true or false." }) });
export const archiveConversationInput = z.object({ conversationId: idSchema, archived: z.boolean({ message: "Say true or false." }) });
export const renameConversationInput = z.object({
  conversationId: idSchema,
  title: z
    .string({ message: "The title must be text." })
    .trim()
    .min(1, { message: "The title is empty." })
    .max(TITLE_LIMIT, { message: `The title is longer than ${TITLE_LIMIT} characters.` })
    .refine((title) => !/[\u0000-\u001f\u007f]/.test(title), { message: "The title cannot hold control characters (a line break, a tab)." }),
});

// A cursor is the last row's updatedAt and id (lib/db/organise.ts encodeCursor).
const cursorSchema = z
  .string()
  .max(100)
  .transform((value, ctx) => {
    const at = value.lastIndexOf("_");
    const updatedAt = new Date(value.slice(0, at));
    const id = idSchema.safeParse(value.slice(at + 1));
    if (at < 0 || Number.isNaN(updatedAt.getTime()) || !id.success) {
      ctx.addIssue({ code: "custom", message: "Not a valid page cursor." });
      return z.NEVER;
    }
    return { updatedAt, id: id.data };
  });

export const conversationPageInput = z.object({
  archived: z.boolean().default(false),
  after: cursorSchema.optional(),
  limit: z.number().int().min(1).max(500).default(100),
});

export const deleteMessageInput = seqInput;

export async function pinConversation(actor: Actor, input: unknown): Promise<{ pinned: boolean }> {
  const { conversationId, pinned } = parse(pinConversationInput, input);
  await setConversationPinned(await getDb(), actor.id, conversationId, pinned);
  return { pinned };
}

export async function archiveConversation(actor: Actor, input: unknown): Promise<{ archived: boolean }> {
  const { conversationId, archived } = parse(archiveConversationInput, input);
  await setConversationArchived(await getDb(), actor.id, conversationId, archived);
  return { archived };
}

export async function renameConversation(actor: Actor, input: unknown): Promise<{ title: string }> {
  const { conversationId, title } = parse(renameConversationInput, input);
  await renameRow(await getDb(), actor.id, conversationId, title);
  return { title };
}

export async function conversationPage(actor: Actor, input: unknown): Promise<ConversationPage> {
  const { archived, after, limit } = parse(conversationPageInput, input ?? {});
  return listConversationPage(await getDb(), actor.id, { archived, after: after ?? null, limit });
}

/**
 * Deletes one message (lib/db/message-delete.ts has the rules). Not while a turn runs
 * (the turn gate: the turn's context would change under it), and under the compression
 * lock so no compaction of these messages is being prepared meanwhile.
 */
export async function deleteMessage(actor: Actor, input: unknown): Promise<DeletedMessages> {
  const { conversationId, seq } = parse(deleteMessageInput, input);
  const gate = await openTurnGate(actor.id, conversationId);
  try {
    return await withCompactionStoppedHere(conversationId, async () => hideMessage(await getDb(), actor.id, conversationId, seq));
  } finally {
    await gate.close();
  }
}

/** Every conversation of the actor's as one streamed JSON file (lib/db/bulk-export.ts). */
export async function exportAllConversations(actor: Actor): Promise<{ filename: string; body: ReadableStream<Uint8Array> }> {
  const day = new Date().toISOString().slice(0, 10);
  return { filename: `strata-conversations-${day}.json`, body: bulkExportStream(await getDb(), actor.id) };
}
