// Validation at the boundary (server actions and route handlers share these).
import { z } from "zod";
import { config } from "../config";
import { overridesPatchSchema } from "../settings-layers";
import { instructionsSchema } from "./instructions";
import { MAX_SEARCH_CHARS } from "./search-limits";

/** STRATA_MAX_MESSAGE_CHARS, read when asked so that a changed setting applies without a restart of the module graph. */
export function maxMessageChars(): number {
  return config().STRATA_MAX_MESSAGE_CHARS;
}

// Sequence numbers are 32-bit integer columns: a larger one is refused here, not by the database with a 500.
const INT4_MAX = 2_147_483_647;
const seqOf = (min: 0 | 1) =>
  z
    .number()
    .int()
    .min(min)
    .max(INT4_MAX, { message: `Sequence numbers are at most ${INT4_MAX.toLocaleString("en-US")}.` });
export const seqNumber = seqOf(1);

export const idSchema = z.string().uuid({ message: "Not a valid id." });

/** A message's text within the length limit, possibly empty (a message of files only). */
export const messageTextSchema = z.string({ message: "The message must be text." }).superRefine((text, ctx) => {
  const max = maxMessageChars();
  if (text.length > max) ctx.addIssue({ code: "custom", message: `The message is longer than the maximum of ${max.toLocaleString("en-US")} characters.` });
});

export const EMPTY_MESSAGE = "The message is empty.";

export const messageContentSchema = messageTextSchema.refine((text) => text.trim().length > 0, { message: EMPTY_MESSAGE });

export const createConversationInput = z.object({
  title: z.string().trim().min(1).max(200).optional(),
  model: z.string().trim().min(1).max(200).optional(),
  systemPrompt: instructionsSchema.optional(),
});

export const updateConversationInput = z.object({
  conversationId: idSchema,
  title: z.string().trim().min(1, { message: "The title is empty." }).max(200).optional(),
  model: z.string().trim().min(1).max(200).optional(),
  systemPrompt: instructionsSchema.optional(),
});

/** "New conversation from this summary": any compaction of the user's, any level. */
export const fromSummaryInput = z.object({ compactionId: idSchema });

export const seqInput = z.object({ conversationId: idSchema, seq: seqNumber });

export const pinInput = seqInput.extend({ pinned: z.boolean() });

export const rewindInput = z.object({
  conversationId: idSchema,
  turns: z.number().int().min(1).max(1000),
});

export const editMessageInput = seqInput.extend({ content: messageContentSchema });

export const compactInput = z.object({
  conversationId: idSchema,
  instructions: z.string().max(5_000).optional(),
  preview: z.boolean().optional(),
});

export const applyProposalInput = z.object({
  conversationId: idSchema,
  summary: z.string().trim().min(1, { message: "The summary is empty." }).max(200_000),
  fromSeq: seqNumber,
  toSeq: seqNumber,
  instructions: z.string().max(5_000).optional(),
});

export const childrenInput = z.object({
  compactionId: idSchema,
  afterSeq: seqOf(0).optional(),
  limit: z.number().int().min(1).max(500).default(50),
});

export const timelineInput = z.object({
  conversationId: idSchema,
  beforeSeq: seqNumber.optional(),
  limit: z.number().int().min(1).max(1000).default(200),
});

/** Shows another version of a message (lib/db/versions.ts). */
export const switchVersionInput = z.object({ conversationId: idSchema, messageId: idSchema });

export const searchInput = z.object({
  q: z
    .string({ message: "Give a search query (q)." })
    .trim()
    .min(1, { message: "The search query is empty." })
    .max(MAX_SEARCH_CHARS, { message: `The search query is longer than ${MAX_SEARCH_CHARS} characters.` }),
  conversationId: idSchema.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

/** A token's or a session's id as the auth library writes it (not a uuid). */
export const recordIdSchema = z.string().min(1).max(100);

export const signupsOpenInput = z.boolean({ message: "Say true or false." });

/** A conversation's overrides: a value sets one, null removes it. */
export const conversationOverridesInput = overridesPatchSchema.extend({ conversationId: idSchema });
