import type { Db } from "./client.ts";
import type { Prisma } from "./generated/client.ts";
import { attemptColumns, toAttemptView, toCompactionView, toMessageView, type ChildrenOf } from "./mappers.ts";
import { viewsWithVersions } from "./versions.ts";
import { undoneTimelineItems } from "./undo.ts";
import { unapplied } from "../compression/records";
import { assertOwnsConversation, ownedConversation } from "./conversations.ts";
import { seqFilters, uncoveredRanges } from "./ranges.ts";
import { notFound } from "../errors.ts";
import type { AttemptRecord, CallUsage, CompactionRecord, CompressionChange } from "../compression/types";
import type { AttemptView, CompactionView, TimelineItem } from "../views";

type Tx = Prisma.TransactionClient;

export class CompactionConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CompactionConflict";
  }
}

const compactedFirst = (range: { fromSeq: number; toSeq: number }) =>
  new CompactionConflict(`Messages ${range.fromSeq}–${range.toSeq} were compacted by a concurrent turn first.`);

/** The summary calls' usage as stored beside a compaction or an attempt (null: no call, or no report). */
function callUsageColumns(usage: CallUsage | undefined) {
  return {
    callPromptTokens: usage?.promptTokens ?? null,
    callCachedTokens: usage?.cachedTokens ?? null,
    callCompletionTokens: usage?.completionTokens ?? null,
  };
}

function attemptData(conversationId: string, attempt: AttemptRecord): Prisma.CompactionAttemptCreateManyInput {
  return { conversationId, ...attemptColumns(attempt), ...callUsageColumns(attempt.usage) };
}

export function compactionData(conversationId: string, record: CompactionRecord): Prisma.CompactionCreateManyInput {
  return {
    id: record.id,
    conversationId,
    level: record.level,
    kind: record.kind,
    trigger: record.trigger,
    strategy: record.strategy,
    fromSeq: record.fromSeq,
    toSeq: record.toSeq,
    summary: record.summary,
    title: record.title ?? null,
    outOfView: record.outOfView ?? null,
    ...(record.kind === "summary"
      ? {
          ...(record.sections ? { sections: record.sections as Prisma.InputJsonValue } : {}),
          summaryModel: record.summaryModel ?? null,
          instructions: record.instructions ?? null,
        }
      : {}),
    summaryTokens: record.summaryTokens,
    coveredMessageCount: record.coveredMessageCount,
    coveredTokens: record.coveredTokens,
    keptSeqs: record.keptSeqs,
    messagesBefore: record.messagesBefore,
    messagesAfter: record.messagesAfter,
    tokensBefore: record.tokensBefore,
    tokensAfter: record.tokensAfter,
    durationMs: Math.round(record.durationMs),
    ...callUsageColumns(record.usage),
    background: record.background,
    createdAt: record.createdAt,
  };
}

async function insertCompaction(tx: Tx, conversationId: string, record: CompactionRecord): Promise<void> {
  // Anything active that overlaps the new range must be exactly what it merges;
  // otherwise another turn compacted these messages since we read them.
  // A clearing lies over messages without replacing them: it overlaps only clearings
  // (which it absorbs), and summaries and truncations only each other.
  const overlapping = await tx.compaction.findMany({
    where: {
      conversationId,
      supersededById: null,
      undoneAt: null,
      fromSeq: { lte: record.toSeq },
      toSeq: { gte: record.fromSeq },
      kind: record.kind === "clearing" ? "clearing" : { not: "clearing" },
    },
    select: { id: true },
  });
  const absorbs = record.kind === "truncation" ? record.absorbsId : undefined;
  const merged = new Set(absorbs ? [...record.childIds, absorbs] : record.childIds);
  if (overlapping.some((row) => !merged.has(row.id))) throw compactedFirst(record);
  await tx.compaction.create({ data: compactionData(conversationId, record) });
  if (absorbs) {
    // The truncation before this one hands its children up and is withdrawn (undone by
    // the engine, as a rewind undoes; no user's name on it): one record per cut would
    // otherwise nest in a chain. Undoing this one brings back everything both covered.
    await tx.compaction.updateMany({ where: { conversationId, supersededById: absorbs }, data: { supersededById: record.id } });
    const { count } = await tx.compaction.updateMany({
      where: { id: absorbs, conversationId, kind: "truncation", supersededById: null, undoneAt: null },
      data: { undoneAt: new Date() },
    });
    if (count !== 1) throw compactedFirst(record);
  }
  if (record.childIds.length > 0) {
    const { count } = await tx.compaction.updateMany({
      where: { id: { in: record.childIds }, conversationId, supersededById: null, undoneAt: null },
      data: { supersededById: record.id },
    });
    if (count !== record.childIds.length) throw compactedFirst(record);
  }
}

/** A summary leaves the model's view (or its stand-in changes): only while it is still active. */
async function setOutOfView(tx: Tx, conversationId: string, entry: { id: string; text: string }): Promise<void> {
  const { count } = await tx.compaction.updateMany({
    where: { id: entry.id, conversationId, kind: "summary", supersededById: null, undoneAt: null },
    data: { outOfView: entry.text },
  });
  if (count !== 1) throw new CompactionConflict("A summary leaving the model's view was merged or undone by a concurrent turn first.");
}

/**
 * Saves one run of the compression manager: every new compaction, the links from the
 * records it merges, and the attempts, in ONE transaction under the conversation's
 * row lock. A conflict — a concurrent run compacted first, or the history was rewound
 * since the transcript was read (`historyVersion`) — rolls everything back and is
 * recorded as skipped attempts instead; the returned attempts are the ones stored.
 */
export async function saveCompressionChange(
  db: Db,
  userId: string,
  conversationId: string,
  change: Pick<CompressionChange, "created" | "attempts" | "setAside">,
  historyVersion: number,
): Promise<{ saved: boolean; conflict?: string; attempts: AttemptRecord[] }> {
  const setAside = change.setAside ?? [];
  if (change.created.length === 0 && setAside.length === 0) {
    await recordAttempts(db, userId, conversationId, change.attempts);
    return { saved: true, attempts: change.attempts };
  }
  try {
    await db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ historyVersion: number }[]>`
        SELECT "historyVersion" FROM "Conversation" WHERE id = ${conversationId} AND "userId" = ${userId} FOR UPDATE`;
      if (locked.length === 0) throw notFound("conversation", conversationId);
      if (locked[0]?.historyVersion !== historyVersion) {
        throw new CompactionConflict("The conversation was rewound or edited while this compaction was prepared.");
      }
      for (const record of change.created) await insertCompaction(tx, conversationId, record);
      for (const entry of setAside) await setOutOfView(tx, conversationId, entry);
      if (change.attempts.length > 0) {
        await tx.compactionAttempt.createMany({ data: change.attempts.map((a) => attemptData(conversationId, a)) });
      }
    });
    return { saved: true, attempts: change.attempts };
  } catch (error) {
    if (!(error instanceof CompactionConflict)) throw error;
    const attempts = change.attempts.map((attempt) => unapplied(attempt, { outcome: "skipped", reason: `${error.message} (${attempt.reason})` }));
    await recordAttempts(db, userId, conversationId, attempts);
    return { saved: false, conflict: error.message, attempts };
  }
}

export async function recordAttempts(db: Db, userId: string, conversationId: string, attempts: AttemptRecord[]): Promise<void> {
  if (attempts.length === 0) return;
  await assertOwnsConversation(db, userId, conversationId);
  await db.compactionAttempt.createMany({ data: attempts.map((a) => attemptData(conversationId, a)) });
}

export async function listAttempts(db: Db, userId: string, conversationId: string, limit = 100): Promise<AttemptView[]> {
  await assertOwnsConversation(db, userId, conversationId);
  const rows = await db.compactionAttempt.findMany({
    where: { conversationId },
    orderBy: { createdAt: "desc" },
    take: limit,
  });
  return rows.map(toAttemptView);
}

async function childrenOf(db: Db, ids: string[]): Promise<Map<string, ChildrenOf>> {
  if (ids.length === 0) return new Map();
  const groups = await db.compaction.groupBy({
    by: ["supersededById"],
    where: { supersededById: { in: ids } },
    _count: { _all: true },
    _sum: { coveredMessageCount: true },
  });
  return new Map(groups.map((group) => [group.supersededById ?? "", { count: group._count._all, coveredMessages: group._sum.coveredMessageCount ?? 0 }]));
}

function bySeq(a: TimelineItem, b: TimelineItem): number {
  const seqOf = (item: TimelineItem) => (item.type === "message" ? item.message.seq : item.compaction.fromSeq);
  return seqOf(a) - seqOf(b);
}

/**
 * The chat view's top level: active compactions standing where their messages were,
 * then the messages still in the model's view. Only the newest `limit` messages are
 * returned; `beforeSeq` pages further back.
 */
export async function loadTimeline(
  db: Db,
  userId: string,
  conversationId: string,
  options: { limit: number; beforeSeq?: number },
): Promise<{ items: TimelineItem[]; hasEarlier: boolean }> {
  const conversation = await db.conversation.findFirst({ where: ownedConversation(userId, conversationId), select: { lastSeq: true } });
  if (!conversation) throw notFound("conversation", conversationId);
  const compactions = await db.compaction.findMany({
    where: { conversationId, supersededById: null, undoneAt: null },
    orderBy: { fromSeq: "asc" },
  });
  const upTo = options.beforeSeq != null ? options.beforeSeq - 1 : Math.max(conversation.lastSeq, 1);
  // A clearing hides nothing from people: its messages stay in the timeline, with a notice where it starts.
  const covering = compactions.filter((c) => c.kind !== "clearing");
  const gaps = uncoveredRanges({ fromSeq: 1, toSeq: upTo }, covering);
  const rows =
    gaps.length === 0
      ? []
      : await db.message.findMany({
          where: { conversationId, rewoundAt: null, OR: seqFilters(gaps) },
          orderBy: { seq: "desc" },
          take: options.limit + 1,
        });
  const hasEarlier = rows.length > options.limit;
  const messages = rows.slice(0, options.limit);
  const oldestLoaded = messages.at(-1)?.seq ?? upTo + 1;
  const counts = await childrenOf(db, compactions.map((c) => c.id));
  const underSummary = (c: { fromSeq: number; toSeq: number }) => covering.some((s) => s.fromSeq <= c.fromSeq && c.toSeq <= s.toSeq);
  const shownCompactions = compactions.filter(
    (c) => c.fromSeq <= upTo && (hasEarlier ? c.fromSeq >= oldestLoaded : true) && !(c.kind === "clearing" && underSummary(c)),
  );
  const items: TimelineItem[] = [
    ...shownCompactions.map((c) => ({ type: "compaction" as const, compaction: toCompactionView(c, counts.get(c.id)) })),
    // Before the messages: an undone record stands above the first message it gave back.
    ...(await undoneTimelineItems(db, conversationId, { oldestSeq: hasEarlier ? oldestLoaded : 1, upToSeq: upTo, covering })),
    ...(await viewsWithVersions(db, conversationId, messages)).map((message) => ({ type: "message" as const, message })),
  ];
  return { items: items.sort(bySeq), hasEarlier };
}

/**
 * What a compaction replaced, for expanding it: the lower-level compactions it merged
 * and the original messages they do not cover, in order, paged by sequence number.
 */
export async function loadCompactionChildren(
  db: Db,
  userId: string,
  compactionId: string,
  options: { afterSeq?: number; limit: number },
): Promise<{ items: TimelineItem[]; nextAfterSeq: number | null }> {
  const parent = await db.compaction.findFirst({ where: { id: compactionId, conversation: { userId } } });
  if (!parent) throw notFound("compaction", compactionId);
  const start = Math.max(parent.fromSeq, (options.afterSeq ?? parent.fromSeq - 1) + 1);
  const children = await db.compaction.findMany({ where: { supersededById: parent.id }, orderBy: { fromSeq: "asc" } });
  const window = { fromSeq: start, toSeq: parent.toSeq };
  // What a clearing "replaced" is its messages themselves (the clearings it absorbed only said so earlier).
  const gaps = uncoveredRanges(window, parent.kind === "clearing" ? [] : children);
  const rows =
    gaps.length === 0
      ? []
      : await db.message.findMany({
          where: { conversationId: parent.conversationId, rewoundAt: null, OR: seqFilters(gaps) },
          orderBy: { seq: "asc" },
          take: options.limit + 1,
        });
  const more = rows.length > options.limit;
  const messages = rows.slice(0, options.limit);
  const lastLoadedSeq = more ? (messages.at(-1)?.seq ?? parent.toSeq) : parent.toSeq;
  const counts = await childrenOf(db, children.map((c) => c.id));
  const shownChildren = parent.kind === "clearing" ? [] : children.filter((c) => c.fromSeq >= start && c.fromSeq <= lastLoadedSeq);
  const items: TimelineItem[] = [
    ...shownChildren.map((c) => ({ type: "compaction" as const, compaction: toCompactionView(c, counts.get(c.id)) })),
    ...messages.map((row) => ({ type: "message" as const, message: toMessageView(row) })),
  ];
  return { items: items.sort(bySeq), nextAfterSeq: more ? lastLoadedSeq : null };
}

export async function getCompactionView(db: Db, userId: string, compactionId: string): Promise<CompactionView> {
  const row = await db.compaction.findFirst({ where: { id: compactionId, conversation: { userId } } });
  if (!row) throw notFound("compaction", compactionId);
  const counts = await childrenOf(db, [row.id]);
  return toCompactionView(row, counts.get(row.id));
}
