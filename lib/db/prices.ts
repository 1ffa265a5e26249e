// The admin's price table and what calls cost by it.
//
// Prices are append-only rows: a change is a new row, and every call is priced at the
// row of its model that was newest when the call was stored. So a change applies from
// the next call on and never rewrites what earlier ones cost; a call made while its
// model had no price stays tokens only (pricing it later at a price that did not apply
// then would pass a guess off as its bill). The time is the database's on both sides
// (the rows' createdAt defaults), so every server process agrees on the order.
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";
import { assertOwnsConversation } from "./conversations.ts";
import {
  addFigures,
  figureOf,
  NO_CALLS,
  paybackTurns,
  ratesOf,
  type AccountCostView,
  type CompactionCostView,
  type ConversationCostView,
  type CostFigure,
  type ModelPrice,
  type ModelPriceView,
  type Rates,
} from "../pricing";

type PriceColumns = { inputPerMillion: number | null; cachedInputPerMillion: number | null; outputPerMillion: number | null };

/** The price in effect for each model that has one (the newest row per model). */
export async function listPrices(db: Db): Promise<ModelPriceView[]> {
  const rows = await db.$queryRaw<(PriceColumns & { model: string; createdAt: Date })[]>`
    SELECT DISTINCT ON (model) model, "inputPerMillion", "cachedInputPerMillion", "outputPerMillion", "createdAt"
    FROM "ModelPrice" ORDER BY model, "createdAt" DESC, id DESC`;
  return rows
    .filter((row) => ratesOf(row) !== null)
    .map((row) => ({
      model: row.model,
      inputPerMillion: row.inputPerMillion,
      cachedInputPerMillion: row.cachedInputPerMillion,
      outputPerMillion: row.outputPerMillion,
      since: row.createdAt.toISOString(),
    }));
}

/** A new price for a model (all null: tokens only from now on); calls stored before keep theirs. */
export async function setPrice(db: Db, price: ModelPrice): Promise<void> {
  // now() of the database, as the calls' rows get it.
  await db.$executeRaw`
    INSERT INTO "ModelPrice" (id, model, "inputPerMillion", "cachedInputPerMillion", "outputPerMillion", "createdAt")
    VALUES (gen_random_uuid()::text, ${price.model}, ${price.inputPerMillion}, ${price.cachedInputPerMillion}, ${price.outputPerMillion}, now())`;
}

// Each call with the price row in effect when it was stored (none: tokens only).
const PRICE_AT = (model: Prisma.Sql, at: Prisma.Sql) => Prisma.sql`
  LEFT JOIN LATERAL (
    SELECT p."inputPerMillion", p."cachedInputPerMillion", p."outputPerMillion" FROM "ModelPrice" p
    WHERE p.model = ${model} AND p."createdAt" <= ${at} ORDER BY p."createdAt" DESC, p.id DESC LIMIT 1
  ) price ON true`;

type GroupRow = PriceColumns & { kind: "chat" | "summary"; current: boolean; calls: number; prompt: number; cached: number; completion: number };

function groupFigure(row: GroupRow): CostFigure {
  return figureOf(row.calls, { promptTokens: row.prompt, cachedTokens: row.cached, completionTokens: row.completion }, ratesOf(row));
}

// The calls of the conversations `scope` selects: chat replies (rewound and failed ones
// too: they were paid for) and compaction attempts (failed and preview ones too).
// `current`: made since the newest shown user message (the turn under way or just done).
async function callGroups(db: Db, scope: Prisma.Sql): Promise<GroupRow[]> {
  return db.$queryRaw<GroupRow[]>`
    WITH scope AS (${scope}),
    turn AS (
      SELECT DISTINCT ON (m."conversationId") m."conversationId", m.seq, m."createdAt" FROM "Message" m JOIN scope ON scope.id = m."conversationId"
      WHERE m.role = 'user' AND m."rewoundAt" IS NULL ORDER BY m."conversationId", m.seq DESC
    ),
    calls AS (
      SELECT 'chat' AS kind, m.model, m."createdAt" AS at, m."promptTokens" AS prompt, COALESCE(m."cachedTokens", 0) AS cached,
             COALESCE(m."completionTokens", 0) AS completion, COALESCE(m.seq > turn.seq, false) AS current
      FROM "Message" m JOIN scope ON scope.id = m."conversationId" LEFT JOIN turn ON turn."conversationId" = m."conversationId"
      WHERE m.role = 'assistant' AND m."promptTokens" IS NOT NULL
      UNION ALL
      SELECT 'summary', a.model, a."createdAt", a."callPromptTokens", COALESCE(a."callCachedTokens", 0),
             COALESCE(a."callCompletionTokens", 0), COALESCE(a."createdAt" >= turn."createdAt", false)
      FROM "CompactionAttempt" a JOIN scope ON scope.id = a."conversationId" LEFT JOIN turn ON turn."conversationId" = a."conversationId"
      WHERE a."callPromptTokens" IS NOT NULL
    )
    SELECT calls.kind, calls.current, price."inputPerMillion", price."cachedInputPerMillion", price."outputPerMillion",
           count(*)::int AS calls, sum(calls.prompt)::float8 AS prompt, sum(calls.cached)::float8 AS cached, sum(calls.completion)::float8 AS completion
    FROM calls ${PRICE_AT(Prisma.sql`calls.model`, Prisma.sql`calls.at`)}
    GROUP BY 1, 2, 3, 4, 5`;
}

function sumWhere(rows: GroupRow[], keep: (row: GroupRow) => boolean): CostFigure {
  return rows.filter(keep).map(groupFigure).reduce(addFigures, NO_CALLS);
}

/** The chat model's price in effect now (what a later turn will pay). */
async function currentRates(db: Db, model: string): Promise<Rates | null> {
  const rows = await db.$queryRaw<PriceColumns[]>`
    SELECT "inputPerMillion", "cachedInputPerMillion", "outputPerMillion" FROM "ModelPrice"
    WHERE model = ${model} ORDER BY "createdAt" DESC, id DESC LIMIT 1`;
  return ratesOf(rows[0]);
}

type CompactionRow = PriceColumns & {
  id: string;
  prompt: number | null;
  cached: number | null;
  completion: number | null;
  saved: number;
  turnsSince: number;
};

async function compactionCosts(db: Db, conversationId: string, chatRates: Rates | null): Promise<CompactionCostView[]> {
  const rows = await db.$queryRaw<CompactionRow[]>`
    SELECT c.id, c."callPromptTokens" AS prompt, c."callCachedTokens" AS cached, c."callCompletionTokens" AS completion,
           c."tokensBefore" - c."tokensAfter" AS saved, price."inputPerMillion", price."cachedInputPerMillion", price."outputPerMillion",
           (SELECT count(*)::int FROM "Message" m WHERE m."conversationId" = c."conversationId" AND m.role = 'assistant'
              AND m."promptTokens" IS NOT NULL AND m."createdAt" > c."createdAt") AS "turnsSince"
    FROM "Compaction" c ${PRICE_AT(Prisma.sql`c."summaryModel"`, Prisma.sql`c."createdAt"`)}
    WHERE c."conversationId" = ${conversationId} AND c."undoneAt" IS NULL
    ORDER BY c."fromSeq", c.level`;
  return rows.map((row) => {
    const cost =
      row.prompt === null
        ? NO_CALLS
        : figureOf(1, { promptTokens: row.prompt, cachedTokens: row.cached ?? 0, completionTokens: row.completion ?? 0 }, ratesOf(row));
    const saved = Math.max(0, row.saved);
    return {
      compactionId: row.id,
      cost,
      savedTokensPerTurn: saved,
      savedPerTurn: chatRates ? (saved * chatRates.inputPerMillion) / 1_000_000 : null,
      payback: cost.calls > 0 ? paybackTurns(cost, saved, chatRates) : null,
      turnsSince: row.turnsSince,
    };
  });
}

export async function conversationCost(db: Db, userId: string, conversationId: string): Promise<ConversationCostView> {
  await assertOwnsConversation(db, userId, conversationId);
  const scope = Prisma.sql`SELECT id FROM "Conversation" WHERE id = ${conversationId} AND "userId" = ${userId}`;
  const [rows, conversation] = await Promise.all([
    callGroups(db, scope),
    db.conversation.findFirstOrThrow({ where: { id: conversationId, userId }, select: { model: true } }),
  ]);
  const chatRates = await currentRates(db, conversation.model);
  return {
    total: sumWhere(rows, () => true),
    thisTurn: sumWhere(rows, (row) => row.current),
    chat: sumWhere(rows, (row) => row.kind === "chat"),
    compaction: sumWhere(rows, (row) => row.kind === "summary"),
    compactions: await compactionCosts(db, conversationId, chatRates),
  };
}

/** Everything the user's conversations cost (those they still have). */
export async function accountCost(db: Db, userId: string): Promise<AccountCostView> {
  const [rows, conversations] = await Promise.all([
    callGroups(db, Prisma.sql`SELECT id FROM "Conversation" WHERE "userId" = ${userId}`),
    db.conversation.count({ where: { userId } }),
  ]);
  return {
    total: sumWhere(rows, () => true),
    chat: sumWhere(rows, (row) => row.kind === "chat"),
    compaction: sumWhere(rows, (row) => row.kind === "summary"),
    conversations,
  };
}
