// What the model may read back of its own conversation once part of it is compressed:
// whether anything is compressed, the original messages of a range, and the compressed
// originals that best match a text (automatic recall). Every query filters on the
// conversation's owner, so another user's words are never read. Search by the model's
// own words goes through lib/db/search.ts.
import type { Db } from "./client.ts";

export type HistoryState = { model: string; compacted: boolean; lastSeq: number };

/**
 * The conversation's model, whether an active compaction exists, and its newest message
 * number; null when it is not the user's. One statement: every turn asks (the history
 * tools' offer).
 */
export async function historyState(db: Db, userId: string, conversationId: string): Promise<HistoryState | null> {
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

/** The searchable words of a text, as one OR query in websearch syntax (empty: nothing to search for). */
export function anyWordQuery(text: string): string {
  const words = new Set<string>();
  for (const match of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0].toLowerCase();
    // websearch syntax reads a bare "or" as the operator.
    if (word === "or") continue;
    words.add(word);
    if (words.size >= MAX_QUERY_WORDS) break;
  }
  return [...words].join(" or ");
}

/**
 * A match must share with the user's message at least one word that at most this share
 * of the compressed messages contain: ordinary words ("plan", "check") are in most of
 * them, and a block of such matches would cost every turn its size for nothing.
 */
const MAX_TELLING_SHARE = 0.1;

/**
 * The original messages under an active compaction (not kept in view beside it) that
 * share the most telling words with `text`, best first: what automatic recall offers the
 * model. Any word matches (a question shares few words with the sentence that answers
 * it), and each matched word counts by how rare it is among the compressed messages
 * (ln((n + 1) / df), n the compressed messages, df those with the word): "k13" in one
 * message outweighs "project" in every one, which ts_rank alone does not see.
 */
export async function searchCompressed(db: Db, userId: string, conversationId: string, text: string, limit: number): Promise<RecallHit[]> {
  const query = anyWordQuery(text);
  if (!query) return [];
  // Every turn asks, once something is compressed, so the statement keeps per-message work
  // small: each matched message is tested for the query's own words (at most
  // MAX_QUERY_WORDS lookups in its tsvector, not the whole vector unpacked), scores come
  // from one join grouped by message, and the text is read only for the best few.
  const rows = await db.$queryRaw<{ seq: number; role: string; content: string; excerpt: string; rank: number }[]>`
    WITH q AS (
      SELECT websearch_to_tsquery('english', ${query}) AS query,
             tsvector_to_array(to_tsvector('english', ${query})) AS lexemes
    ),
    matched AS (
      SELECT m.seq,
             ARRAY(SELECT l FROM unnest(q.lexemes) l WHERE m."searchVector" @@ quote_literal(l)::tsquery) AS words
      FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId", q
      WHERE c.id = ${conversationId} AND c."userId" = ${userId}
        AND numnode(q.query) > 0
        AND m."rewoundAt" IS NULL AND m."searchVector" @@ q.query
        AND EXISTS (
          SELECT 1 FROM "Compaction" k
          WHERE k."conversationId" = m."conversationId" AND k."undoneAt" IS NULL AND k."supersededById" IS NULL
            AND m.seq BETWEEN k."fromSeq" AND k."toSeq" AND NOT (m.seq = ANY (k."keptSeqs"))
        )
    ),
    df AS (SELECT w, count(*)::float8 AS n FROM matched, unnest(matched.words) w GROUP BY w),
    total AS (
      SELECT greatest(1, coalesce(sum(k."coveredMessageCount"), 0))::float8 AS n
      FROM "Compaction" k WHERE k."conversationId" = ${conversationId} AND k."undoneAt" IS NULL AND k."supersededById" IS NULL
    ),
    weighed AS (
      SELECT matched.seq, coalesce(sum(ln((total.n + 1) / df.n)), 0) AS score, coalesce(min(df.n), total.n) AS rarest
      FROM matched CROSS JOIN total
      LEFT JOIN LATERAL unnest(matched.words) AS mw(word) ON true
      LEFT JOIN df ON df.w = mw.word
      GROUP BY matched.seq, total.n
    ),
    scored AS (
      SELECT weighed.* FROM weighed, total
      WHERE weighed.rarest <= greatest(1, total.n * ${MAX_TELLING_SHARE})
      ORDER BY score DESC, weighed.seq DESC
      LIMIT ${limit}
    )
    SELECT scored.seq, m.role::text AS role, m.content, scored.score::float8 AS rank,
           ts_headline('english', m.content, q.query, ${EXCERPT_OPTIONS}) AS excerpt
    FROM scored JOIN "Message" m ON m."conversationId" = ${conversationId} AND m.seq = scored.seq, q
    ORDER BY scored.score DESC, scored.seq DESC`;
  return rows.map((row) => ({ ...row, seq: Number(row.seq), rank: Number(row.rank), excerpt: row.excerpt.replaceAll(MARK_START, "").replaceAll(MARK_END, "") }));
}
