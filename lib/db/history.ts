// What the model may read back of its own conversation once part of it is compressed:
// whether anything is compressed, the original messages of a range, and the compressed
// originals that best match a text (automatic recall). Every query filters on the
// conversation's owner, so another user's words are never read. Search by the model's
// own words goes through lib/db/search.ts.
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";
import { cachedContext, isAt, type ConversationHead } from "./context-cache.ts";
import { keepFrequencies, keptFrequencies } from "./word-frequencies.ts";

export type HistoryState = { model: string; compacted: boolean; lastSeq: number };

/**
 * The conversation's model, whether an active compaction exists, and its newest message
 * number; null when it is not the user's. Every turn asks (the history tools' offer):
 * `known`, the conversation row as the turn's own statement left it (the owner checked by
 * it), answers without a read when this process's copy of the context is at that row;
 * otherwise one statement.
 */
export async function historyState(db: Db, userId: string, conversationId: string, known?: ConversationHead | null): Promise<HistoryState | null> {
  const copy = known ? cachedContext(db, conversationId) : undefined;
  if (known && copy && isAt(copy, known)) {
    return { model: known.model, compacted: copy.compactions.length + copy.clearings.length > 0, lastSeq: known.lastSeq };
  }
  const rows = await db.$queryRaw<HistoryState[]>`
    SELECT c.model,
           EXISTS (SELECT 1 FROM "Compaction" k WHERE k."conversationId" = c.id AND k."supersededById" IS NULL AND k."undoneAt" IS NULL) AS compacted,
           COALESCE((SELECT max(m.seq) FROM "Message" m WHERE m."conversationId" = c.id), 0) AS "lastSeq"
    FROM "Conversation" c
    WHERE c.id = ${conversationId} AND c."userId" = ${userId}`;
  return rows[0] ?? null;
}

export type HistoryMessage = {
  seq: number;
  role: string;
  content: string;
  toolCalls: unknown;
  toolName: string | null;
};

/**
 * The shown messages numbered `from`…`to` (rewound and hidden versions left out), oldest
 * first, at most `limit` of them.
 */
export async function readHistoryRange(db: Db, userId: string, conversationId: string, from: number, to: number, limit: number): Promise<HistoryMessage[]> {
  return db.message.findMany({
    where: { conversationId, conversation: { userId }, seq: { gte: from, lte: to }, rewoundAt: null },
    orderBy: { seq: "asc" },
    take: limit,
    select: { seq: true, role: true, content: true, toolCalls: true, toolName: true },
  });
}

export type RecallHit = { seq: number; role: string; content: string; excerpt: string; rank: number };

// ts_headline marks matches with these; recall strips them (the model reads plain text).
const MARK_START = "\u0001";
const MARK_END = "\u0002";
const EXCERPT_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=40, MinWords=20, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;
/** Words of the user's message searched for at most (a pasted page would otherwise make a huge query). */
const MAX_QUERY_WORDS = 32;

/** The searchable words of a text, each once, lower-cased, at most MAX_QUERY_WORDS. */
export function queryWords(text: string): string[] {
  const words = new Set<string>();
  for (const match of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0].toLowerCase();
    // websearch syntax reads a bare "or" as the operator.
    if (word === "or") continue;
    words.add(word);
    if (words.size >= MAX_QUERY_WORDS) break;
  }
  return [...words];
}

/** The searchable words of a text, as one OR query in websearch syntax (empty: nothing to search for). */
export function anyWordQuery(text: string): string {
  return queryWords(text).join(" or ");
}

/**
 * A match must share with the user's message at least one word that at most this share
 * of the compressed messages contain: ordinary words ("plan", "check") are in most of
 * them, and a block of such matches would cost every turn its size for nothing.
 */
const MAX_TELLING_SHARE = 0.1;

// The compressed originals: messages under an active compaction (summary, truncation or
// clearing), not kept in view beside it, not rewound. An owner's check comes with it,
// evaluated once for the statement. `matching`: a tsquery the message must match.
function compressedMessages(userId: string, conversationId: string, matching: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT DISTINCT ON (m.seq) m.seq, m."searchVector" AS vector
    FROM "Compaction" k JOIN "Message" m ON m."conversationId" = k."conversationId" AND m.seq BETWEEN k."fromSeq" AND k."toSeq"
    WHERE k."conversationId" = ${conversationId} AND k."undoneAt" IS NULL AND k."supersededById" IS NULL
      AND EXISTS (SELECT 1 FROM "Conversation" c WHERE c.id = ${conversationId} AND c."userId" = ${userId})
      AND m."rewoundAt" IS NULL AND NOT (m.seq = ANY (k."keptSeqs")) AND m."searchVector" @@ ${matching}`;
}

/** A tsquery matching any of the lexemes (as stored in a tsvector, so no stemming again). */
function anyLexeme(lexemes: readonly string[]): Prisma.Sql {
  return Prisma.sql`array_to_string(ARRAY(SELECT quote_literal(l) FROM unnest(${lexemes}::text[]) l), ' | ')::tsquery`;
}

type Counts = { total: number; lexemesOf: Map<string, readonly string[]>; documents: Map<string, number> };

/** How many compressed messages contain each word's lexemes, and how many there are. One statement. */
async function readCounts(db: Db, userId: string, conversationId: string, words: readonly string[]): Promise<Counts> {
  const rows = await db.$queryRaw<{ word: string | null; lexeme: string | null; documents: bigint | null; total: number }[]>`
    WITH w AS (
      SELECT word, lexeme FROM unnest(${words}::text[]) AS word, unnest(tsvector_to_array(to_tsvector('english', word))) AS lexeme
    ),
    candidates AS MATERIALIZED (
      ${compressedMessages(userId, conversationId, Prisma.sql`(SELECT array_to_string(array_agg(quote_literal(lexeme)), ' | ') FROM w)::tsquery`)}
    ),
    found AS (
      SELECT w.word, w.lexeme, (SELECT count(*) FROM candidates WHERE candidates.vector @@ quote_literal(w.lexeme)::tsquery) AS documents
      FROM w
    ),
    total AS (
      SELECT greatest(1, coalesce(sum(k."coveredMessageCount"), 0))::int AS n
      FROM "Compaction" k WHERE k."conversationId" = ${conversationId} AND k."undoneAt" IS NULL AND k."supersededById" IS NULL
        AND EXISTS (SELECT 1 FROM "Conversation" c WHERE c.id = ${conversationId} AND c."userId" = ${userId})
    )
    SELECT found.word, found.lexeme, found.documents, total.n AS total FROM total LEFT JOIN found ON true`;
  const lexemesOf = new Map<string, string[]>(words.map((word) => [word, []]));
  const documents = new Map<string, number>();
  for (const row of rows) {
    if (row.word === null || row.lexeme === null) continue;
    lexemesOf.get(row.word)?.push(row.lexeme);
    documents.set(row.lexeme, Number(row.documents ?? 0));
  }
  return { total: rows[0]?.total ?? 1, lexemesOf, documents };
}

/**
 * The original messages under an active compaction (not kept in view beside it) that
 * share the most telling words with `text`, best first: what automatic recall offers the
 * model. Any word matches (a question shares few words with the sentence that answers
 * it), and each matched word counts by how rare it is among the compressed messages
 * (ln((n + 1) / df), n the compressed messages, df those with the word): "k13" in one
 * message outweighs "project" in every one, which ts_rank alone does not see. A match
 * must contain at least one telling word (MAX_TELLING_SHARE).
 *
 * `compressedSet` names the set of active compactions (their ids): the word counts read
 * for it are kept between turns, so a turn reads only the counts of words it has not
 * looked up before, and searches only when one of its words is telling. Without it the
 * counts are read every time.
 */
export async function searchCompressed(
  db: Db,
  userId: string,
  conversationId: string,
  text: string,
  limit: number,
  compressedSet?: string,
): Promise<RecallHit[]> {
  const words = queryWords(text);
  if (words.length === 0) return [];
  const kept = compressedSet === undefined ? null : keptFrequencies(db, userId, conversationId, compressedSet);
  const unknown = words.filter((word) => !kept?.lexemesOf.has(word));
  let counts: Counts | null = kept;
  if (unknown.length > 0) {
    const read = await readCounts(db, userId, conversationId, unknown);
    counts = compressedSet === undefined ? read : keepFrequencies(db, userId, conversationId, compressedSet, read);
  }
  if (!counts) return [];
  const lexemes = [...new Set(words.flatMap((word) => counts.lexemesOf.get(word) ?? []))].filter((lexeme) => (counts.documents.get(lexeme) ?? 0) > 0);
  const telling = lexemes.filter((lexeme) => counts.documents.get(lexeme)! <= Math.max(1, counts.total * MAX_TELLING_SHARE));
  // Nothing any match could be told apart by: no search at all.
  if (telling.length === 0) return [];
  const weights = lexemes.map((lexeme) => Math.log((counts.total + 1) / counts.documents.get(lexeme)!));
  // Each matched message is tested for the query's own lexemes (a lookup in its tsvector
  // each, not the whole vector unpacked), and its text read only for the best few.
  const rows = await db.$queryRaw<{ seq: number; role: string; content: string; excerpt: string; rank: number }[]>`
    WITH matched AS (${compressedMessages(userId, conversationId, anyLexeme(telling))}),
    scored AS (
      SELECT matched.seq,
             (SELECT coalesce(sum(w.weight), 0) FROM unnest(${lexemes}::text[], ${weights}::float8[]) AS w(lexeme, weight)
              WHERE matched.vector @@ quote_literal(w.lexeme)::tsquery) AS score
      FROM matched
      ORDER BY score DESC, matched.seq DESC
      LIMIT ${limit}
    )
    SELECT scored.seq, m.role::text AS role, m.content, scored.score::float8 AS rank,
           ts_headline('english', m.content, websearch_to_tsquery('english', ${words.join(" or ")}), ${EXCERPT_OPTIONS}) AS excerpt
    FROM scored JOIN "Message" m ON m."conversationId" = ${conversationId} AND m.seq = scored.seq
    ORDER BY scored.score DESC, scored.seq DESC`;
  return rows.map((row) => ({ ...row, seq: Number(row.seq), rank: Number(row.rank), excerpt: row.excerpt.replaceAll(MARK_START, "").replaceAll(MARK_END, "") }));
}
