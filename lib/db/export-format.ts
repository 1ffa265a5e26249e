// The portable form of one conversation (export and import): every message, rewound
// ones too; the whole compaction tree, undone compactions too; the attempts; and the
// settings that applied. Compactions are referred to by their position in the file
// (`ref`), never by database id, so export → import → export gives the same file apart
// from ids and timestamps. Validated with zod on import, ranges checked separately
// (lib/db/import.ts).
import { z } from "zod";
import { toolContentSchema } from "../mcp/content";
import { overridesPatchSchema } from "../settings-layers";
import {
  attemptOutcomeSchema,
  compactionKindSchema,
  compactionSourceSchema,
  compactionTriggerSchema,
  messageRoleSchema,
} from "../compression/types";
import { messageStatusSchema, toolOutcomeSchema } from "../views";

export const EXPORT_FORMAT = "strata.conversation";
export const EXPORT_VERSION = 1;

// The tables' integer columns are 32-bit: a larger number is refused here rather than
// failing half-way through the import. (NUL in text, which PostgreSQL cannot store
// either, is refused item by item by lib/db/import.ts.)
const INT4_MAX = 2_147_483_647;
const seq = z.number().int().positive().max(INT4_MAX);
const count = z.number().int().nonnegative().max(INT4_MAX);
const text = (max: number) => z.string().max(max);
const timestamp = z.iso.datetime({ offset: true });

const toolCall = z.strictObject({ id: text(200), name: text(200), arguments: text(1_000_000) });

/**
 * A file attached to a user message: the original bytes in base64 (their size is checked
 * against STRATA_ATTACHMENT_MAX_BYTES by the importer), the text the model got (already in
 * the message's content) and where its block starts there.
 */
export const exportedAttachment = z.strictObject({
  name: text(255).min(1),
  mediaType: text(200),
  data: z.base64({ message: "An attachment's data must be base64." }),
  text: text(20_000_000).nullable(),
  tokenCount: count,
  contentStart: count.nullable(),
});

export const exportedMessage = z.strictObject({
  seq,
  role: messageRoleSchema,
  // A message carries its attachments' text (lib/attachments/compose.ts): up to the attachment limit and more.
  content: text(20_000_000),
  toolCalls: z.array(toolCall).max(200).nullable(),
  toolCallId: text(200).nullable(),
  toolName: text(200).nullable(),
  /** Absent in files from before tool outcomes were recorded. */
  toolOutcome: toolOutcomeSchema.nullable().default(null),
  toolDurationMs: count.nullable().default(null),
  toolServer: text(200).nullable().default(null),
  /** A tool server's content blocks (lib/mcp/content.ts); absent in files from before they were kept. */
  toolContent: toolContentSchema.nullable().default(null),
  tokenCount: count,
  promptTokens: count.nullable(),
  completionTokens: count.nullable(),
  requestTokens: count.nullable(),
  model: text(200).nullable(),
  /** A reasoning model's thinking before the reply; absent in files from before it was kept. */
  reasoning: text(20_000_000).nullable().default(null),
  status: messageStatusSchema,
  error: text(10_000).nullable(),
  pinned: z.boolean(),
  rewound: z.boolean(),
  /** The seq of the first version of this message's place (lib/db/versions.ts); absent in files from before versions. */
  versionOf: seq.nullable().default(null),
  /** While hidden by a version change: the seq of the version whose branch this message is. */
  branchOf: seq.nullable().default(null),
  createdAt: timestamp,
  /** Files attached to the message; absent in files from before attachments. */
  attachments: z.array(exportedAttachment).max(10).default([]),
});

export const exportedCompaction = z.strictObject({
  ref: count,
  level: z.number().int().min(1).max(100),
  kind: compactionKindSchema,
  trigger: compactionTriggerSchema,
  strategy: compactionSourceSchema,
  fromSeq: seq,
  toSeq: seq,
  summary: text(2_000_000),
  /** Absent in files from before titles. */
  title: text(1000).nullable().default(null),
  /** What stands for the summary in the model's request once it left the view; absent in files from before. */
  outOfView: text(2_000_000).nullable().default(null),
  sections: z.record(z.string(), z.unknown()).nullable(),
  summaryModel: text(200).nullable(),
  instructions: text(10_000).nullable(),
  summaryTokens: count,
  keptSeqs: z.array(seq).max(100_000),
  coveredMessageCount: count,
  coveredTokens: count,
  messagesBefore: count,
  messagesAfter: count,
  tokensBefore: count,
  tokensAfter: count,
  durationMs: count,
  background: z.boolean(),
  /** The ref of the higher-level compaction that merged this one. */
  supersededBy: count.nullable(),
  undone: z.boolean(),
  createdAt: timestamp,
  /** When it was undone, and whether its owner undid it ("Undo this compaction") rather than a rewind; absent in files from before. */
  undoneAt: timestamp.nullable().default(null),
  undoneByOwner: z.boolean().default(false),
});

export const exportedAttempt = z.strictObject({
  trigger: compactionTriggerSchema,
  strategy: compactionSourceSchema,
  outcome: attemptOutcomeSchema,
  reason: text(10_000),
  error: text(10_000).nullable(),
  model: text(200).nullable(),
  background: z.boolean(),
  /** The ref of the compaction it produced. */
  compaction: count.nullable(),
  messagesBefore: count,
  messagesAfter: count.nullable(),
  tokensBefore: count,
  tokensAfter: count.nullable(),
  durationMs: count,
  createdAt: timestamp,
});

/** The most items of each section a file may hold (checked as they stream in by lib/db/import.ts). */
export const SECTION_LIMITS = { messages: 200_000, compactions: 50_000, attempts: 100_000 } as const;

/** A conversation title's length limit, as the API's title inputs have it. */
export const TITLE_LIMIT = 200;

export const conversationExport = z.strictObject({
  format: z.literal(EXPORT_FORMAT, { message: `Not a Strata conversation export (format must be "${EXPORT_FORMAT}").` }),
  version: z.literal(EXPORT_VERSION, { message: `Only version ${EXPORT_VERSION} exports can be imported.` }),
  exportedAt: timestamp,
  conversation: z.strictObject({
    title: z.string().trim().min(1).max(TITLE_LIMIT),
    model: z.string().trim().min(1).max(200),
    systemPrompt: text(100_000),
    /** The reply temperature (null: none sent, the server's default); absent in files from before it was exported. */
    temperature: z.number().min(0).max(2).nullable().default(null),
    createdAt: timestamp,
  }),
  settings: z.strictObject({
    /** This conversation's own overrides (imported). */
    overrides: overridesPatchSchema,
    /** Every setting as it applied when exported (for the reader; not imported). */
    effective: z.record(z.string(), z.unknown()),
  }),
  messages: z.array(exportedMessage).max(SECTION_LIMITS.messages),
  compactions: z.array(exportedCompaction).max(SECTION_LIMITS.compactions),
  attempts: z.array(exportedAttempt).max(SECTION_LIMITS.attempts),
});

export type ConversationExport = z.infer<typeof conversationExport>;
export type ExportedMessage = z.infer<typeof exportedMessage>;
export type ExportedCompaction = z.infer<typeof exportedCompaction>;
export type ExportedAttachment = z.infer<typeof exportedAttachment>;
