// Structural invariants of one conversation's stored history, read straight from the
// database. Each returns a list of human-readable violations (empty = sound), so a
// failing test says exactly what is broken.
import type { Db } from "../../../lib/db/client";

/** The database or a transaction on it. */
type Reader = Pick<Db, "conversation" | "message" | "compaction" | "compactionAttempt">;

type Row = { id: string; level: number; kind: string; fromSeq: number; toSeq: number; supersededById: string | null; undoneAt: Date | null };

export async function messageViolations(db: Reader, conversationId: string): Promise<string[]> {
  const problems: string[] = [];
  const conversation = await db.conversation.findUnique({ where: { id: conversationId } });
  if (!conversation) return [`conversation ${conversationId} is missing`];
  const rows = await db.message.findMany({ where: { conversationId }, select: { seq: true }, orderBy: { seq: "asc" } });
  if (rows.length !== conversation.lastSeq) problems.push(`${rows.length} messages stored but lastSeq is ${conversation.lastSeq}`);
  const seen = new Set<number>();
  for (const [index, row] of rows.entries()) {
    if (seen.has(row.seq)) problems.push(`seq ${row.seq} is duplicated`);
    seen.add(row.seq);
    if (row.seq !== index + 1) {
      problems.push(`seq gap: position ${index + 1} holds seq ${row.seq}`);
      break;
    }
  }
  return problems;
}

export async function compactionViolations(
  db: Reader,
  conversationId: string,
  options: { seeded?: Set<string>; duplicateRanges?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const conversation = await db.conversation.findUnique({ where: { id: conversationId } });
  const lastSeq = conversation?.lastSeq ?? 0;
  const rows: Row[] = await db.compaction.findMany({
    where: { conversationId },
    select: { id: true, level: true, kind: true, fromSeq: true, toSeq: true, supersededById: true, undoneAt: true },
    orderBy: { fromSeq: "asc" },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const childCount = new Map<string, number>();
  for (const row of rows) {
    if (row.fromSeq < 1 || row.toSeq < row.fromSeq || row.toSeq > lastSeq) problems.push(`compaction ${row.id} has an impossible range ${row.fromSeq}–${row.toSeq} (lastSeq ${lastSeq})`);
    if (row.supersededById) {
      const parent = byId.get(row.supersededById);
      childCount.set(row.supersededById, (childCount.get(row.supersededById) ?? 0) + 1);
      if (!parent) {
        problems.push(`compaction ${row.id} is superseded by ${row.supersededById}, which does not exist in this conversation`);
        continue;
      }
      if (parent.level <= row.level) problems.push(`compaction ${row.id} (L${row.level}) is superseded by ${parent.id} of level ${parent.level}, not higher`);
      if (parent.fromSeq > row.fromSeq || parent.toSeq < row.toSeq) {
        problems.push(`parent ${parent.id} ${parent.fromSeq}–${parent.toSeq} does not contain child ${row.id} ${row.fromSeq}–${row.toSeq}`);
      }
    }
  }
  for (const row of rows) {
    // A merged summary (or a truncation over summaries) of level ≥ 2 without its children was half-written.
    if (row.level > 1 && !childCount.get(row.id)) problems.push(`compaction ${row.id} has level ${row.level} but no children`);
  }
  const active = rows.filter((row) => row.supersededById === null && row.undoneAt === null).sort((a, b) => a.fromSeq - b.fromSeq);
  for (let i = 1; i < active.length; i++) {
    const previous = active[i - 1]!;
    const current = active[i]!;
    if (current.fromSeq <= previous.toSeq) {
      problems.push(`active compactions overlap: ${previous.id} ${previous.fromSeq}–${previous.toSeq} and ${current.id} ${current.fromSeq}–${current.toSeq}`);
    }
  }
  if (options.duplicateRanges) {
    const seen = new Map<string, string>();
    for (const row of rows.filter((r) => r.undoneAt === null)) {
      const key = `${row.level}:${row.fromSeq}:${row.toSeq}`;
      const other = seen.get(key);
      if (other) problems.push(`two compactions ${other} and ${row.id} with the same range ${row.fromSeq}–${row.toSeq} at level ${row.level}`);
      seen.set(key, row.id);
    }
  }
  // Attempts: references resolve, and every compaction the app made was recorded as applied.
  const attempts = await db.compactionAttempt.findMany({ where: { conversationId }, select: { id: true, outcome: true, compactionId: true, reason: true } });
  const appliedFor = new Set<string>();
  for (const attempt of attempts) {
    if (!attempt.reason.trim()) problems.push(`attempt ${attempt.id} has no reason`);
    if (attempt.compactionId) {
      appliedFor.add(attempt.compactionId);
      if (!byId.has(attempt.compactionId)) problems.push(`attempt ${attempt.id} references missing compaction ${attempt.compactionId}`);
    }
    if (attempt.outcome === "applied" && !attempt.compactionId) problems.push(`applied attempt ${attempt.id} references no compaction`);
    if (attempt.outcome !== "applied" && attempt.compactionId) problems.push(`${attempt.outcome} attempt ${attempt.id} references compaction ${attempt.compactionId}`);
  }
  for (const row of rows) {
    if (options.seeded?.has(row.id)) continue;
    if (!appliedFor.has(row.id)) problems.push(`compaction ${row.id} has no applied attempt (saved without its attempt)`);
  }
  return problems;
}

/** Both checks on ONE snapshot (REPEATABLE READ), so concurrent writers cannot produce false alarms. */
export async function allViolations(db: Db, conversationId: string, options: { seeded?: Set<string>; duplicateRanges?: boolean } = {}): Promise<string[]> {
  return db.$transaction(
    async (tx) => [...(await messageViolations(tx, conversationId)), ...(await compactionViolations(tx, conversationId, options))],
    { isolationLevel: "RepeatableRead", timeout: 30_000 },
  );
}
