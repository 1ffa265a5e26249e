// The turn lease: at most one turn runs in a conversation at a time, whichever server
// process runs it. The lease lives on the conversation row (turnLeaseId, turnLeaseUntil,
// the database's clock), is taken in the statement that stores the turn's user message,
// renewed while the turn runs and cleared with the final reply (or when the turn ends
// otherwise). A process that dies mid-turn leaves a lease that expires by itself.
// lib/chat/concurrency/index.ts says where this stands among the other locks.
//
// The statement that stores messages together with the conversation row's change (the
// sequence counter, and the lease for a turn's first and last message) is written here
// only, so the lease's columns are never spelled anywhere else: other appends call it
// with no lease step (lib/db/messages.ts).
import type { Db } from "./client.ts";
import { Prisma, type Message } from "./generated/client.ts";
import type { ConversationHead, StoredMessages } from "./context-cache.ts";
import { nameAfterFirstMessage } from "./conversations.ts";
import { draftData, type PlainDraft, type ReplyDraft, type UserDraft } from "./message-drafts.ts";
import { settingsLayerColumns } from "./settings.ts";
import { serversInUseColumn, serversInUseOf, type McpServerRecord } from "./mcp-servers.ts";
import { resolveLayers, type ResolvedSettings } from "../settings-layers";
import { bucketState, countEventSql, type Bucket } from "./rate-limit.ts";
import { AppError, notFound } from "../errors.ts";

export const TURN_BUSY_MESSAGE = "A reply is still being written in this conversation. Wait for it to finish (or stop it), then send again.";

/** Refused because another turn holds the conversation (HTTP 409, code "busy"). */
export function turnBusy(): AppError {
  return new AppError("busy", TURN_BUSY_MESSAGE);
}

const leaseFree = Prisma.sql`AND ("turnLeaseUntil" IS NULL OR "turnLeaseUntil" < now())`;

function leaseUntil(leaseMs: number): Prisma.Sql {
  return Prisma.sql`now() + make_interval(secs => ${leaseMs / 1000}::double precision)`;
}

/** A counter the claim counts against, and the error when it is over. */
export type ClaimBucket = Bucket & { refused: (retryAfterSeconds: number) => AppError };

/** A lease to take: its id, how long it lasts without renewal. */
export type LeaseClaim = { leaseId: string; leaseMs: number };

/**
 * What the statement storing messages also does with the lease: nothing, take it (the
 * turn's user message: nothing is stored while another turn holds it, or when the send
 * is over `countAgainst`'s limit) or release it (the turn's last reply; a lease that
 * expired and was taken since is left alone).
 */
type LeaseStep = { kind: "none" } | ({ kind: "take"; countAgainst: Bucket | null } & LeaseClaim) | { kind: "release"; leaseId: string };

/** The statement's change to the conversation row besides the counter, its condition, and the CTE that condition reads. */
function rowChange(step: LeaseStep): { set: Prisma.Sql; where: Prisma.Sql; with: Prisma.Sql } {
  switch (step.kind) {
    case "none":
      return { set: Prisma.empty, where: Prisma.empty, with: Prisma.empty };
    case "take": {
      const set = Prisma.sql`, "turnLeaseId" = ${step.leaseId}, "turnLeaseUntil" = ${leaseUntil(step.leaseMs)}`;
      if (!step.countAgainst) return { set, where: leaseFree, with: Prisma.empty };
      // The send is counted in the same statement (one round trip less): the row is taken
      // only while the count is within the limit.
      return {
        set,
        with: Prisma.sql`counted AS (${countEventSql(step.countAgainst)}),`,
        where: Prisma.sql`${leaseFree} AND (SELECT "count" FROM counted) <= ${step.countAgainst.max}`,
      };
    }
    case "release":
      return {
        set: Prisma.sql`, "turnLeaseId" = CASE WHEN "turnLeaseId" = ${step.leaseId} THEN NULL ELSE "turnLeaseId" END,
          "turnLeaseUntil" = CASE WHEN "turnLeaseId" = ${step.leaseId} THEN NULL ELSE "turnLeaseUntil" END`,
        where: Prisma.empty,
        with: Prisma.empty,
      };
  }
}

// Every column Prisma maps, not `*`: the generated search vector is not one it can read.
const MESSAGE_COLUMNS = Prisma.raw(
  ["id", "conversationId", "seq", "role", "content", "toolCalls", "toolCallId", "toolName", "toolOutcome", "toolDurationMs", "toolServer", "tokenCount", "promptTokens",
    "completionTokens", "requestTokens", "cachedTokens", "model", "status", "error", "pinned", "rewoundAt", "versionOf", "branchOf", "createdAt", "updatedAt", "toolContent", "reasoning"]
    .map((column) => `"${column}"`)
    .join(", "),
);

/** What the statement returns with every message: the conversation row (as `head…`). */
type HeadColumns = { headModel: string; headSystemPrompt: string; headLastSeq: number; headHistoryVersion: number; headContextVersion: number };
/** And, when it takes the lease, the stored settings layers (unchecked JSON: resolveLayers checks them) and the reply temperature. */
type SettingsColumns = { settingsDefaults: unknown; settingsUser: unknown; settingsConversation: unknown; turnTemperature: number | null; turnServers: unknown };
/** And, when it releases the lease, what the conversation's change version is made of. */
type ChangeColumns = { changeCompactions: bigint; changePins: bigint };
const EXTRA_COLUMNS = [
  "headModel", "headSystemPrompt", "headLastSeq", "headHistoryVersion", "headContextVersion",
  "settingsDefaults", "settingsUser", "settingsConversation", "turnTemperature", "turnServers", "changeCompactions", "changePins",
] as const satisfies readonly (keyof (HeadColumns & SettingsColumns & ChangeColumns))[];

type Returned = Message & HeadColumns & Partial<SettingsColumns> & Partial<ChangeColumns>;

/** The counts besides the row's own columns that make up its change version (see conversationChangeState). */
function changeCountColumns(conversationId: string): Prisma.Sql {
  return Prisma.sql`(SELECT count(*) + count(k."undoneAt") FROM "Compaction" k WHERE k."conversationId" = ${conversationId}) AS "changeCompactions",
    (SELECT count(*) FROM "Message" m WHERE m."conversationId" = ${conversationId} AND m.pinned) AS "changePins"`;
}

function changeVersion(row: { lastSeq: number; historyVersion: number; compactions: bigint; pins: bigint }): string {
  return `${row.lastSeq}.${row.historyVersion}.${row.compactions}.${row.pins}`;
}

function messageOnly(row: Returned): Message {
  const message: Partial<Returned> = { ...row };
  for (const key of EXTRA_COLUMNS) delete message[key];
  return message as Message;
}

/**
 * Stores messages (no tool results: those are checked against their call in a
 * transaction) in ONE statement, so one round trip instead of a transaction's four: the
 * UPDATE ... RETURNING takes the conversation row's lock and hands out the numbers the
 * INSERT uses; a single statement is atomic by itself. Null when the row did not meet
 * the lease step's condition (or is not the user's). `first`: the first row as returned,
 * with the settings columns when the step takes the lease.
 */
async function appendStatement(
  db: Db,
  userId: string,
  conversationId: string,
  drafts: PlainDraft[],
  lease: LeaseStep,
): Promise<(StoredMessages & { first: Returned }) | null> {
  const row = rowChange(lease);
  // Only the turn's first statement reads what the turn starts from, and only its last
  // what the conversation's version is after it (a data-modifying CTE's rows are not
  // visible to the rest of the statement: the counts are of before, which the reply
  // does not change).
  const extra =
    lease.kind === "take"
      ? Prisma.sql`, bumped."settingsOverrides" AS "settingsConversation", bumped.temperature AS "turnTemperature", ${settingsLayerColumns(userId)},
          ${serversInUseColumn(userId, conversationId)} AS "turnServers"`
      : lease.kind === "release"
        ? Prisma.sql`, ${changeCountColumns(conversationId)}`
        : Prisma.empty;
  const data = drafts.map((draft) => draftData(conversationId, 0, draft));
  const column = <T>(pick: (row: Prisma.MessageCreateManyInput) => T | undefined) => data.map((row) => pick(row) ?? null);
  const returned = await db.$queryRaw<Returned[]>`
    WITH ${row.with} bumped AS (
      UPDATE "Conversation" SET "lastSeq" = "lastSeq" + ${drafts.length}, "updatedAt" = now() ${row.set}
      WHERE id = ${conversationId} AND "userId" = ${userId} ${row.where}
      RETURNING "lastSeq", model, "systemPrompt", "historyVersion", "contextVersion", "settingsOverrides", temperature
    ), inserted AS (
      INSERT INTO "Message" (id, "conversationId", seq, role, content, "toolCalls", "tokenCount", model, status, error,
                             "promptTokens", "completionTokens", "cachedTokens", "requestTokens", "versionOf", "reasoning", "updatedAt")
      SELECT gen_random_uuid()::text, ${conversationId}, bumped."lastSeq" - ${drafts.length} + d.n, d.role::"MessageRole", d.content,
             d.calls::jsonb, d.tokens, d.model, COALESCE(d.status, 'complete')::"MessageStatus", d.error, d.prompt, d.completion, d.cached, d.request, d.version, d.reasoning, now()
      FROM bumped,
           unnest(${column((row) => row.role)}::text[], ${column((row) => row.content)}::text[],
                  ${column((row) => (row.toolCalls === undefined ? null : JSON.stringify(row.toolCalls)))}::text[],
                  ${column((row) => row.tokenCount)}::int[], ${column((row) => row.model)}::text[], ${column((row) => row.status)}::text[],
                  ${column((row) => row.error)}::text[], ${column((row) => row.promptTokens)}::int[],
                  ${column((row) => row.completionTokens)}::int[], ${column((row) => row.cachedTokens)}::int[],
                  ${column((row) => row.requestTokens)}::int[], ${column((row) => row.versionOf)}::text[], ${column((row) => row.reasoning)}::text[])
             WITH ORDINALITY AS d(role, content, calls, tokens, model, status, error, prompt, completion, cached, request, version, reasoning, n)
      RETURNING ${MESSAGE_COLUMNS}
    )
    SELECT inserted.*, bumped.model AS "headModel", bumped."systemPrompt" AS "headSystemPrompt", bumped."lastSeq" AS "headLastSeq",
           bumped."historyVersion" AS "headHistoryVersion", bumped."contextVersion" AS "headContextVersion" ${extra}
    FROM inserted, bumped`;
  const first = returned[0];
  if (!first) return null;
  const head: ConversationHead = {
    model: first.headModel,
    systemPrompt: first.headSystemPrompt,
    lastSeq: first.headLastSeq,
    historyVersion: first.headHistoryVersion,
    contextVersion: first.headContextVersion,
  };
  return { rows: returned.map(messageOnly).sort((a, b) => a.seq - b.seq), head, first };
}

/** Messages stored in one statement with no change to the lease (lib/db/messages.ts appends through this). */
export async function storeInOneStatement(db: Db, userId: string, conversationId: string, drafts: PlainDraft[]): Promise<StoredMessages | null> {
  const stored = await appendStatement(db, userId, conversationId, drafts, { kind: "none" });
  return stored && { rows: stored.rows, head: stored.head };
}

/**
 * Why a claim took no row: the conversation is not the user's (404), the send count
 * was over its limit (the bucket's error), or another turn holds it (409).
 */
async function refusal(db: Db, userId: string, conversationId: string, bucket?: ClaimBucket | null): Promise<AppError> {
  const exists = await db.conversation.findFirst({ where: { id: conversationId, userId }, select: { id: true } });
  if (!exists) return notFound("conversation", conversationId);
  if (bucket) {
    const state = await bucketState(db, bucket);
    if (!state.allowed) return bucket.refused(state.retryAfterSeconds);
  }
  return turnBusy();
}

/**
 * Takes the conversation's turn lease for work that stores no user message first (a
 * retry, an edit, a version switch, an undo). Throws "busy" while another turn holds a
 * lease that has not expired. One statement is atomic and takes the conversation row's
 * lock, so two claims at once are serialized and the second sees the first one's lease.
 */
export async function takeTurnLease(db: Db, userId: string, conversationId: string, { leaseId, leaseMs }: LeaseClaim): Promise<void> {
  const taken = await db.$executeRaw`
    UPDATE "Conversation" SET "turnLeaseId" = ${leaseId}, "turnLeaseUntil" = ${leaseUntil(leaseMs)}
    WHERE id = ${conversationId} AND "userId" = ${userId} ${leaseFree}`;
  if (taken === 0) throw await refusal(db, userId, conversationId);
}

/** A turn's user message as stored with the lease, and what the turn starts from. */
export type TurnMessage = {
  stored: StoredMessages;
  /** The conversation's new name when this was its first message (see nameAfterFirstMessage), else null. */
  title: string | null;
  /** The conversation's settings as the statement read them: the turn's snapshot. */
  settings: ResolvedSettings;
  /** The reply temperature as the statement read it (null: none sent). */
  temperature: number | null;
  /** The tool servers the conversation uses, as the statement read them. */
  servers: McpServerRecord[];
};

/**
 * takeTurnLease for a new message: the same statement stores it and counts it against
 * `countAgainst` (refused, storing nothing, when over), and returns the conversation
 * row and its settings as they are now, so the turn needs no other read to start.
 */
export async function storeTurnMessage(
  db: Db,
  userId: string,
  conversationId: string,
  // titleFrom: what a first message names the conversation from when that is not its content (the typed text of a message with files).
  claim: LeaseClaim & { message: UserDraft; countAgainst: ClaimBucket | null; titleFrom?: string | undefined },
): Promise<TurnMessage> {
  const { leaseId, leaseMs, message, countAgainst, titleFrom } = claim;
  const taken = await appendStatement(db, userId, conversationId, [message], { kind: "take", leaseId, leaseMs, countAgainst });
  const row = taken?.rows[0];
  if (!taken || !row) throw await refusal(db, userId, conversationId, countAgainst);
  // Only the first message of a conversation costs this second statement.
  const title = await nameAfterFirstMessage(db, userId, conversationId, titleFrom === undefined ? row : { seq: row.seq, content: titleFrom });
  const { settingsDefaults, settingsUser, settingsConversation, turnTemperature, turnServers } = taken.first;
  const settings = resolveLayers({ defaults: settingsDefaults, user: settingsUser, conversation: settingsConversation });
  return { stored: { rows: taken.rows, head: taken.head }, title, settings, temperature: turnTemperature ?? null, servers: serversInUseOf(turnServers) };
}

/**
 * Stores the turn's last reply and releases its lease in the same statement, which also
 * answers the conversation's change version after it (two round trips less per turn).
 */
export async function storeFinalReply(
  db: Db,
  userId: string,
  conversationId: string,
  leaseId: string,
  reply: ReplyDraft,
): Promise<StoredMessages & { version: string }> {
  const stored = await appendStatement(db, userId, conversationId, [reply], { kind: "release", leaseId });
  if (!stored) throw notFound("conversation", conversationId);
  const { head, first } = stored;
  const version = changeVersion({ lastSeq: head.lastSeq, historyVersion: head.historyVersion, compactions: first.changeCompactions ?? 0n, pins: first.changePins ?? 0n });
  return { rows: stored.rows, head, version };
}

/** Extends a lease this turn still holds; false when it was lost (expired and taken by another turn). */
export async function renewTurnLease(db: Db, userId: string, conversationId: string, leaseId: string, leaseMs: number): Promise<boolean> {
  const renewed = await db.$executeRaw`
    UPDATE "Conversation" SET "turnLeaseUntil" = ${leaseUntil(leaseMs)}
    WHERE id = ${conversationId} AND "userId" = ${userId} AND "turnLeaseId" = ${leaseId}`;
  return renewed > 0;
}

export async function releaseTurnLease(db: Db, userId: string, conversationId: string, leaseId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "Conversation" SET "turnLeaseId" = NULL, "turnLeaseUntil" = NULL
    WHERE id = ${conversationId} AND "userId" = ${userId} AND "turnLeaseId" = ${leaseId}`;
}

export type ConversationChangeState = {
  /** Changes whenever a message is stored, the history is rewound or a compaction is stored. */
  version: string;
  /** A turn holds the conversation (in this tab, another one, or another process). */
  turnRunning: boolean;
};

/**
 * A cheap summary of what can change under an open tab: the sequence counter, the
 * history version, the compactions and pins. Tabs poll it and reload the timeline
 * only when it moved.
 */
export async function conversationChangeState(db: Db, userId: string, conversationId: string): Promise<ConversationChangeState> {
  const rows = await db.$queryRaw<({ lastSeq: number; historyVersion: number; running: boolean } & ChangeColumns)[]>`
    SELECT c."lastSeq", c."historyVersion", ${changeCountColumns(conversationId)},
      (c."turnLeaseUntil" IS NOT NULL AND c."turnLeaseUntil" > now()) AS running
    FROM "Conversation" c WHERE c.id = ${conversationId} AND c."userId" = ${userId}`;
  const row = rows[0];
  if (!row) throw notFound("conversation", conversationId);
  return { version: changeVersion({ ...row, compactions: row.changeCompactions, pins: row.changePins }), turnRunning: row.running };
}
