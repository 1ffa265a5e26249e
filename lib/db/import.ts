// Import of a JSON export (./export-format.ts) as a NEW conversation of the importing
// user. The file is checked whole before anything is written (schema, then sequence
// numbers and ranges), and everything is written in one transaction: a refused or
// failing import leaves nothing behind.
import { randomUUID } from "node:crypto";
import type { Db } from "./client.ts";
import type { Prisma } from "./generated/client.ts";
import { toConversationView } from "./mappers.ts";
import { AppError, assertNoNul, invalidInput } from "../errors.ts";
import type { ConversationView } from "../views";
import { conversationExport, type ConversationExport } from "./export-format.ts";

const refused = (message: string) => new AppError("invalid_input", `The file cannot be imported: ${message}`);

/** Sequence numbers and the compaction tree must describe a history Strata could have made. */
export function checkRanges(doc: ConversationExport): void {
  let previous = 0;
  for (const [index, message] of doc.messages.entries()) {
    if (message.seq <= previous) throw refused(`messages[${index}] has seq ${message.seq}, not above the previous ${previous}.`);
    previous = message.seq;
  }
  const seqs = new Set(doc.messages.map((message) => message.seq));
  for (const [index, message] of doc.messages.entries()) {
    for (const link of [message.versionOf, message.branchOf]) {
      if (link != null && !seqs.has(link)) throw refused(`messages[${index}] refers to seq ${link}, which is not in the file.`);
    }
  }
  const byRef = new Map<number, ConversationExport["compactions"][number]>();
  for (const [index, compaction] of doc.compactions.entries()) {
    const where = `compactions[${index}]`;
    if (compaction.ref !== index) throw refused(`${where} has ref ${compaction.ref}; refs must be 0, 1, 2, … in order.`);
    if (compaction.fromSeq > compaction.toSeq) throw refused(`${where} covers ${compaction.fromSeq}–${compaction.toSeq}, a reversed range.`);
    if (!seqs.has(compaction.fromSeq) || !seqs.has(compaction.toSeq)) {
      throw refused(`${where} covers ${compaction.fromSeq}–${compaction.toSeq}, but no message has seq ${seqs.has(compaction.fromSeq) ? compaction.toSeq : compaction.fromSeq}.`);
    }
    for (const kept of compaction.keptSeqs) {
      if (kept < compaction.fromSeq || kept > compaction.toSeq) throw refused(`${where} keeps seq ${kept}, outside its range.`);
    }
    byRef.set(index, compaction);
  }
  for (const [index, compaction] of doc.compactions.entries()) {
    if (compaction.supersededBy == null) continue;
    const parent = byRef.get(compaction.supersededBy);
    const where = `compactions[${index}]`;
    if (!parent) throw refused(`${where} is merged into compaction ${compaction.supersededBy}, which is not in the file.`);
    if (parent.level <= compaction.level) throw refused(`${where} (level ${compaction.level}) is merged into a compaction of level ${parent.level}.`);
    if (parent.fromSeq > compaction.fromSeq || parent.toSeq < compaction.toSeq) {
      throw refused(`${where} covers ${compaction.fromSeq}–${compaction.toSeq}, outside the ${parent.fromSeq}–${parent.toSeq} of the compaction it is merged into.`);
    }
  }
  // What stands in the model's view must not overlap (each message is replaced at most once).
  const active = doc.compactions.filter((c) => c.supersededBy == null && !c.undone).sort((a, b) => a.fromSeq - b.fromSeq);
  for (let i = 1; i < active.length; i++) {
    if (active[i]!.fromSeq <= active[i - 1]!.toSeq) {
      throw refused(`active compactions ${active[i - 1]!.ref} and ${active[i]!.ref} overlap (${active[i - 1]!.fromSeq}–${active[i - 1]!.toSeq} and ${active[i]!.fromSeq}–${active[i]!.toSeq}).`);
    }
  }
  for (const [index, attempt] of doc.attempts.entries()) {
    if (attempt.compaction != null && !byRef.has(attempt.compaction)) {
      throw refused(`attempts[${index}] refers to compaction ${attempt.compaction}, which is not in the file.`);
    }
  }
}

/** Validates an export document (zod, then ranges). */
export function parseExport(input: unknown): ConversationExport {
  const result = conversationExport.safeParse(input);
  if (!result.success) {
    const error = invalidInput(result.error);
    throw new AppError("invalid_input", `The file cannot be imported: ${error.message}`, error.details);
  }
  assertNoNul(result.data, "The file cannot be imported: ");
  checkRanges(result.data);
  return result.data;
}

const json = (value: unknown) => value as Prisma.InputJsonValue;

export async function importConversation(db: Db, userId: string, doc: ConversationExport): Promise<ConversationView> {
  const lastSeq = doc.messages.at(-1)?.seq ?? 0;
  const row = await db.$transaction(
    async (tx) => {
      const conversation = await tx.conversation.create({
        data: {
          userId,
          title: doc.conversation.title,
          model: doc.conversation.model,
          systemPrompt: doc.conversation.systemPrompt,
          settingsOverrides: json(Object.fromEntries(Object.entries(doc.settings.overrides).filter(([, value]) => value != null))),
          lastSeq,
          hiddenMessageCount: doc.messages.filter((m) => m.rewound).length,
          createdAt: new Date(doc.conversation.createdAt),
        },
      });
      const conversationId = conversation.id;
      // Ids made here so version links (by seq in the file) can name them in the same insert.
      const messageIds = new Map(doc.messages.map((m) => [m.seq, randomUUID()]));
      const idAt = (seq: number | null) => (seq != null ? (messageIds.get(seq) ?? null) : null);
      await tx.message.createMany({
        data: doc.messages.map((m) => ({
          id: idAt(m.seq)!,
          conversationId,
          seq: m.seq,
          role: m.role,
          content: m.content,
          ...(m.toolCalls == null ? {} : { toolCalls: json(m.toolCalls) }),
          toolCallId: m.toolCallId,
          toolName: m.toolName,
          tokenCount: m.tokenCount,
          promptTokens: m.promptTokens,
          completionTokens: m.completionTokens,
          requestTokens: m.requestTokens,
          model: m.model,
          status: m.status,
          error: m.error,
          pinned: m.pinned,
          rewoundAt: m.rewound ? new Date(m.createdAt) : null,
          versionOf: idAt(m.versionOf),
          branchOf: idAt(m.branchOf),
          createdAt: new Date(m.createdAt),
        })),
      });
      // Highest level first: a merged compaction's parent exists (and has its id) before
      // the link to it is written.
      const ids = new Map<number, string>();
      const idOf = (ref: number | null) => (ref == null ? null : ids.get(ref)!);
      const order = [...doc.compactions].sort((a, b) => b.level - a.level);
      for (const c of order) {
        const created = await tx.compaction.create({
          select: { id: true },
          data: {
            conversationId,
            level: c.level,
            kind: c.kind,
            trigger: c.trigger,
            strategy: c.strategy,
            fromSeq: c.fromSeq,
            toSeq: c.toSeq,
            summary: c.summary,
            title: c.title,
            outOfView: c.outOfView,
            ...(c.sections == null ? {} : { sections: json(c.sections) }),
            summaryModel: c.summaryModel,
            instructions: c.instructions,
            summaryTokens: c.summaryTokens,
            keptSeqs: c.keptSeqs,
            coveredMessageCount: c.coveredMessageCount,
            coveredTokens: c.coveredTokens,
            messagesBefore: c.messagesBefore,
            messagesAfter: c.messagesAfter,
            tokensBefore: c.tokensBefore,
            tokensAfter: c.tokensAfter,
            durationMs: c.durationMs,
            background: c.background,
            supersededById: idOf(c.supersededBy),
            undoneAt: c.undone ? new Date(c.createdAt) : null,
            createdAt: new Date(c.createdAt),
          },
        });
        ids.set(c.ref, created.id);
      }
      await tx.compactionAttempt.createMany({
        data: doc.attempts.map((a) => ({
          conversationId,
          trigger: a.trigger,
          strategy: a.strategy,
          outcome: a.outcome,
          reason: a.reason,
          error: a.error,
          model: a.model,
          background: a.background,
          compactionId: idOf(a.compaction),
          messagesBefore: a.messagesBefore,
          messagesAfter: a.messagesAfter,
          tokensBefore: a.tokensBefore,
          tokensAfter: a.tokensAfter,
          durationMs: a.durationMs,
          createdAt: new Date(a.createdAt),
        })),
      });
      return conversation;
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
  return toConversationView(row, doc.messages.filter((m) => !m.rewound).length);
}
