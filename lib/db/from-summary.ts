// "New conversation from this summary" (as Cline's /newtask): a new conversation of the
// same user whose context is a compaction's text, linked back to the conversation and
// compaction it came from. The text is stored as a pinned system message: the model reads
// it where a summary would stand, it is never compressed away and it is exported like any
// message, yet it is no unanswered user turn (the view shows it as the context it is). The
// originals pinned inside the summary's range come along verbatim, as a second such
// message: the user pinned them so that no summary would ever stand in for them. All rows
// are written in one transaction.
import type { Db } from "./client.ts";
import type { Prisma } from "./generated/client.ts";
import { toConversationView } from "./mappers.ts";
import { notFound } from "../errors.ts";
import type { ConversationView } from "../views";

/** What the new conversation is made from: an owned compaction and its conversation. */
export type SummarySource = {
  compactionId: string;
  conversationId: string;
  title: string;
  model: string;
  systemPrompt: string;
  settingsOverrides: Prisma.JsonValue;
  /** The reply temperature goes on too (null: none sent). */
  temperature: number | null;
  kind: "summary" | "truncation";
  level: number;
  fromSeq: number;
  toSeq: number;
  summary: string;
  /** Originals pinned inside the range (not rewound), oldest first. */
  pinned: PinnedOriginal[];
};

export type PinnedOriginal = { seq: number; role: string; content: string };

/** Pinned originals carried over at most: more would crowd out the conversation it starts. */
export const CARRIED_PINNED_LIMIT = 50;

/** Another user's compaction is answered like one that does not exist. */
export async function loadSummarySource(db: Db, userId: string, compactionId: string): Promise<SummarySource> {
  const row = await db.compaction.findFirst({
    // A clearing says only which results left the model's view: nothing to start from.
    where: { id: compactionId, conversation: { userId }, kind: { not: "clearing" } },
    select: {
      id: true,
      kind: true,
      level: true,
      fromSeq: true,
      toSeq: true,
      summary: true,
      conversation: { select: { id: true, title: true, model: true, systemPrompt: true, settingsOverrides: true, temperature: true } },
    },
  });
  if (!row) throw notFound("compaction", compactionId);
  const { conversation, id, kind, ...compaction } = row;
  if (kind === "clearing") throw notFound("compaction", compactionId);
  const pinned = await db.message.findMany({
    where: { conversationId: conversation.id, pinned: true, rewoundAt: null, seq: { gte: row.fromSeq, lte: row.toSeq } },
    select: { seq: true, role: true, content: true },
    orderBy: { seq: "asc" },
    take: CARRIED_PINNED_LIMIT,
  });
  return {
    ...compaction,
    kind,
    pinned,
    compactionId: id,
    conversationId: conversation.id,
    title: conversation.title,
    model: conversation.model,
    systemPrompt: conversation.systemPrompt,
    settingsOverrides: conversation.settingsOverrides,
    temperature: conversation.temperature,
  };
}

type CarriedMessage = { content: string; tokenCount: number };

/** The new conversation, its first (pinned system) message holding `first.content`, and `pinned` (if any) as a second one. */
export async function createFromSummary(
  db: Db,
  userId: string,
  source: SummarySource,
  first: CarriedMessage & { title: string },
  pinned: CarriedMessage | null = null,
): Promise<ConversationView> {
  const lastSeq = pinned ? 2 : 1;
  const row = await db.$transaction(async (tx) => {
    const conversation = await tx.conversation.create({
      data: {
        userId,
        title: first.title,
        model: source.model,
        systemPrompt: source.systemPrompt,
        temperature: source.temperature,
        // The source's own overrides (validated when they were stored): the work goes on
        // under the same compression settings.
        settingsOverrides: (source.settingsOverrides ?? {}) as Prisma.InputJsonValue,
        sourceConversationId: source.conversationId,
        sourceCompactionId: source.compactionId,
        lastSeq,
      },
    });
    await tx.message.create({
      data: { conversationId: conversation.id, seq: 1, role: "system", content: first.content, tokenCount: first.tokenCount, pinned: true },
    });
    if (pinned) {
      await tx.message.create({
        data: { conversationId: conversation.id, seq: 2, role: "system", content: pinned.content, tokenCount: pinned.tokenCount, pinned: true },
      });
    }
    return conversation;
  });
  return { ...toConversationView(row, lastSeq), source: { conversationId: source.conversationId, compactionId: source.compactionId, title: source.title } };
}
