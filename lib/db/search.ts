// Full-text search over a user's whole history: every original message (those that
// compression replaced included) and every summary, with PostgreSQL's own text search
// (generated tsvector columns + GIN indexes, migration 20261123220000_search). Works
// the same on PostgreSQL and on embedded PGlite.
//
// Ownership: every query joins the conversation and filters on its userId, so another
// user's text is never matched, counted or quoted.
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";
import { AppError } from "../errors.ts";
import type { SearchHit, SnippetPart } from "../views";
import { plainSnippetText } from "./snippet-text.ts";

// ts_headline wraps each match in these. Control characters cannot be typed into a
// message by accident, and the snippet is split on them into text parts that the
// browser renders as text: stored content never reaches the page as HTML.
const HIT_START = "\u0001";
const HIT_END = "\u0002";
const HEADLINE_OPTIONS = `StartSel=${HIT_START}, StopSel=${HIT_END}, MaxWords=28, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

export type SearchOptions = { conversationId?: string; limit: number };

type HitRow = {
  kind: "message" | "summary";
  id: string;
  conversationId: string;
  conversationTitle: string;
  conversationArchived: boolean | null;
  seq: number | null;
  role: string | null;
  level: number | null;
  fromSeq: number | null;
  toSeq: number | null;
  rank: number;
  createdAt: Date;
  snippet: string;
  covered: boolean;
};

/** Splits ts_headline's output at the markers into plain-text parts. */
export function snippetParts(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let hit = false;
  for (const piece of headline.split(new RegExp(`([${HIT_START}${HIT_END}])`))) {
    if (piece === HIT_START) hit = true;
    else if (piece === HIT_END) hit = false;
    else if (piece) {
      const text = plainSnippetText(piece);
      if (text) parts.push({ text, hit });
    }
  }
  return parts;
}

function toHit(row: HitRow): SearchHit {
  const base = {
    conversationId: row.conversationId,
    conversationTitle: row.conversationTitle,
    conversationArchived: row.conversationArchived === true,
    rank: Number(row.rank),
    createdAt: row.createdAt.toISOString(),
    snippet: snippetParts(row.snippet),
  };
  if (row.kind === "message") {
    const seq = Number(row.seq);
    return { ...base, kind: "message", messageId: row.id, seq, role: row.role ?? "user", compressed: row.covered, anchor: `m-${seq}` };
  }
  const level = Number(row.level);
  const fromSeq = Number(row.fromSeq);
  return {
    ...base,
    kind: "summary",
    compactionId: row.id,
    level,
    fromSeq,
    toSeq: Number(row.toSeq),
    compressed: row.covered,
    anchor: `s-${fromSeq}-l${level}`,
  };
}

/**
 * The `limit` best matches of `query` (websearch syntax: words, "phrases", OR, -word)
 * among the user's messages and summaries, best first, each with a highlighted snippet.
 * Rewound messages and undone compactions are not searched: the user no longer sees them.
 */
export async function searchHistory(db: Db, userId: string, query: string, options: SearchOptions): Promise<SearchHit[]> {
  const [parsed] = await db.$queryRaw<{ words: number }[]>`
    SELECT numnode(websearch_to_tsquery('english', ${query}))::int AS words`;
  if (!parsed || parsed.words === 0) {
    throw new AppError(
      "invalid_input",
      "Nothing to search for: the query has no searchable words (only punctuation, operators or very common words).",
    );
  }
  const inConversation = options.conversationId ? Prisma.sql`AND c.id = ${options.conversationId}` : Prisma.empty;
  // Ranks and limits first; the (costly) headline is computed for the kept rows only.
  // A summary repeats the words of the originals it covers: it ranks just below the
  // lowest-ranked original of its own range that matches too, so the reader lands on
  // the message itself rather than on each level that retold it.
  const rows = await db.$queryRaw<HitRow[]>`
    WITH q AS (SELECT websearch_to_tsquery('english', ${query}) AS query),
    originals AS (
      SELECT 'message' AS kind, m.id, m."conversationId", m.seq, m.role::text AS role,
             NULL::int AS level, NULL::int AS "fromSeq", NULL::int AS "toSeq",
             m.content AS body, m."createdAt", ts_rank(m."searchVector", q.query) AS rank,
             NULL::boolean AS superseded
      FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId", q
      WHERE c."userId" = ${userId} ${inConversation}
        AND m."rewoundAt" IS NULL AND m."searchVector" @@ q.query
    ),
    hits AS (
      SELECT * FROM (
      SELECT * FROM originals
      UNION ALL
      SELECT 'summary', k.id, k."conversationId", NULL, NULL, k.level, k."fromSeq", k."toSeq",
             k.summary, k."createdAt",
             LEAST(ts_rank(k."searchVector", q.query), (
               SELECT min(o.rank) * 0.999 FROM originals o
               WHERE o."conversationId" = k."conversationId" AND o.seq BETWEEN k."fromSeq" AND k."toSeq"
             )),
             k."supersededById" IS NOT NULL
      FROM "Compaction" k JOIN "Conversation" c ON c.id = k."conversationId", q
      WHERE c."userId" = ${userId} ${inConversation}
        AND k."undoneAt" IS NULL AND k.kind <> 'clearing' AND k."searchVector" @@ q.query
      ) matched
      ORDER BY rank DESC, kind = 'message' DESC, "createdAt" DESC
      LIMIT ${options.limit}
    )
    SELECT hits.kind, hits.id, hits."conversationId", c.title AS "conversationTitle", c."archivedAt" IS NOT NULL AS "conversationArchived", hits.seq, hits.role,
           hits.level, hits."fromSeq", hits."toSeq", hits.rank::float8 AS rank, hits."createdAt",
           -- Whether compression replaced it, for the kept rows only (not for every match).
           CASE WHEN hits.kind = 'summary' THEN hits.superseded ELSE EXISTS (
             SELECT 1 FROM "Compaction" k
             WHERE k."conversationId" = hits."conversationId" AND k."undoneAt" IS NULL AND k.kind <> 'clearing'
               AND hits.seq BETWEEN k."fromSeq" AND k."toSeq" AND NOT (hits.seq = ANY (k."keptSeqs"))
           ) END AS covered,
           ts_headline('english', hits.body, q.query, ${HEADLINE_OPTIONS}) AS snippet
    FROM hits JOIN "Conversation" c ON c.id = hits."conversationId", q
    ORDER BY hits.rank DESC, hits.kind = 'message' DESC, hits."createdAt" DESC`;
  return rows.map(toHit);
}
