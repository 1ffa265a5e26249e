import type { Db } from "./client.ts";
import { Prisma, type Message } from "./generated/client.ts";
import { toMessageView, toolCallsOf } from "./mappers.ts";
import { keepAppended, type ConversationHead } from "./transcript.ts";
import { settingsLayerColumns } from "./settings.ts";
import { AppError, notFound } from "../errors.ts";
import type { CallUsage, ToolCall } from "../compression/types";
import type { ToolContent } from "../mcp/content";
import type { MessageStatus, MessageView, ToolOutcome } from "../views";

// versionOf: the first version of the place this message is a new version of (lib/db/versions.ts).
type DraftBase = { content: string; tokenCount: number; versionOf?: string };

export type MessageDraft =
  | (DraftBase & { role: "user" })
  | (DraftBase & {
      role: "assistant";
      toolCalls?: ToolCall[];
      model: string;
      status: MessageStatus;
      error?: string;
      usage?: CallUsage;
      requestTokens?: number;
    })
  | (DraftBase & {
      role: "tool";
      toolCallId: string;
      toolName: string;
      outcome: ToolOutcome;
      durationMs?: number;
      /** The tool server that ran the call; absent for a built-in tool. */
      server?: string;
      /** The server's content blocks when there is more than text (lib/mcp/content.ts). */
      parts?: ToolContent;
    });

function draftData(conversationId: string, seq: number, draft: MessageDraft): Prisma.MessageCreateManyInput {
  const base = { conversationId, seq, role: draft.role, content: draft.content, tokenCount: draft.tokenCount, versionOf: draft.versionOf ?? null };
  switch (draft.role) {
    case "user":
      return base;
    case "assistant":
      return {
        ...base,
        ...(draft.toolCalls?.length ? { toolCalls: draft.toolCalls as unknown as Prisma.InputJsonValue } : {}),
        model: draft.model,
        status: draft.status,
        error: draft.error ?? null,
        promptTokens: draft.usage?.promptTokens ?? null,
        completionTokens: draft.usage?.completionTokens ?? null,
        cachedTokens: draft.usage?.cachedTokens ?? null,
        requestTokens: draft.requestTokens ?? null,
      };
    case "tool":
      return {
        ...base,
        toolCallId: draft.toolCallId,
        toolName: draft.toolName,
        toolOutcome: draft.outcome,
        toolDurationMs: draft.durationMs ?? null,
        toolServer: draft.server ?? null,
        ...(draft.parts ? { toolContent: draft.parts as unknown as Prisma.InputJsonValue } : {}),
      };
  }
}

/**
 * A tool result answers a call of the newest assistant message that made calls, once.
 * Anything else (an unknown id, a second result for the same call) would make the next
 * request invalid for the API, so it is refused here, under the conversation's lock.
 */
async function checkToolResults(tx: Prisma.TransactionClient, conversationId: string, drafts: MessageDraft[]): Promise<void> {
  const results = drafts.filter((draft) => draft.role === "tool");
  if (results.length === 0) return;
  const caller = await tx.message.findFirst({
    where: { conversationId, role: "assistant", rewoundAt: null, NOT: { toolCalls: { equals: Prisma.DbNull } } },
    orderBy: { seq: "desc" },
    select: { seq: true, toolCalls: true },
  });
  const pending = new Set(caller ? toolCallsOf(caller).map((call) => call.id) : []);
  if (caller) {
    const answered = await tx.message.findMany({ where: { conversationId, role: "tool", rewoundAt: null, seq: { gt: caller.seq } }, select: { toolCallId: true } });
    for (const row of answered) if (row.toolCallId) pending.delete(row.toolCallId);
  }
  for (const result of results) {
    if (!pending.has(result.toolCallId)) {
      throw new AppError("conflict", `A result for tool call "${result.toolCallId}" was refused: no call with that id is waiting for one.`);
    }
    pending.delete(result.toolCallId);
  }
}

/**
 * The common case of appendMessageRows (a user message, a reply: nothing to check
 * against pending tool calls) in ONE statement, so one round trip instead of a
 * transaction's four: the UPDATE ... RETURNING takes the conversation row's lock and
 * hands out the numbers the INSERT uses; a single statement is atomic by itself.
 */
// Every column Prisma maps, not `*`: the generated search vector is not one it can read.
const MESSAGE_COLUMNS = Prisma.raw(
  ["id", "conversationId", "seq", "role", "content", "toolCalls", "toolCallId", "toolName", "toolOutcome", "toolDurationMs", "toolServer", "tokenCount", "promptTokens",
    "completionTokens", "requestTokens", "cachedTokens", "model", "status", "error", "pinned", "rewoundAt", "versionOf", "branchOf", "createdAt", "updatedAt", "toolContent"]
    .map((column) => `"${column}"`)
    .join(", "),
);

/**
 * More to change on the conversation row in the statement that stores the messages (the
 * turn lease: taken with the user's message, released with the final reply), a
 * condition the row must meet, or nothing is stored, and CTEs that condition may read
 * (`with`: "name AS (...),", each followed by a comma; the send count).
 */
export type ConversationRowChange = { set: Prisma.Sql; where: Prisma.Sql; with?: Prisma.Sql };

const NO_ROW_CHANGE: ConversationRowChange = { set: Prisma.empty, where: Prisma.empty };

/** What a one-statement append returns with every message: the conversation row (as `head…`) and the settings layers. */
type HeadColumns = {
  headModel: string;
  headSystemPrompt: string;
  headLastSeq: number;
  headHistoryVersion: number;
  headContextVersion: number;
  settingsDefaults: unknown;
  settingsUser: unknown;
  settingsConversation: unknown;
};
const APPEND_EXTRAS = [
  "headModel", "headSystemPrompt", "headLastSeq", "headHistoryVersion", "headContextVersion",
  "settingsDefaults", "settingsUser", "settingsConversation",
] as const satisfies readonly (keyof HeadColumns)[];

function messageOnly(row: Message & HeadColumns): Message {
  const message: Partial<Message & HeadColumns> = { ...row };
  for (const key of APPEND_EXTRAS) delete message[key];
  return message as Message;
}

/**
 * Messages stored by one statement, the conversation row as that statement left it, and
 * the stored settings layers it read (unchecked JSON: resolveLayers checks them), so a
 * turn needs no other read to start.
 */
export type Appended = { rows: Message[]; head: ConversationHead; settingsLayers: { defaults: unknown; user: unknown; conversation: unknown } };

async function appendInOneStatement(
  db: Db,
  userId: string,
  conversationId: string,
  drafts: MessageDraft[],
  row: ConversationRowChange,
): Promise<Appended | null> {
  const data = drafts.map((draft) => draftData(conversationId, 0, draft));
  const column = <T>(pick: (row: Prisma.MessageCreateManyInput) => T | undefined) => data.map((row) => pick(row) ?? null);
  const returned = await db.$queryRaw<(Message & HeadColumns)[]>`
    WITH ${row.with ?? Prisma.empty} bumped AS (
      UPDATE "Conversation" SET "lastSeq" = "lastSeq" + ${drafts.length}, "updatedAt" = now() ${row.set}
      WHERE id = ${conversationId} AND "userId" = ${userId} ${row.where}
      RETURNING "lastSeq", model, "systemPrompt", "historyVersion", "contextVersion", "settingsOverrides"
    ), inserted AS (
      INSERT INTO "Message" (id, "conversationId", seq, role, content, "toolCalls", "tokenCount", model, status, error,
                             "promptTokens", "completionTokens", "cachedTokens", "requestTokens", "versionOf", "updatedAt")
      SELECT gen_random_uuid()::text, ${conversationId}, bumped."lastSeq" - ${drafts.length} + d.n, d.role::"MessageRole", d.content,
             d.calls::jsonb, d.tokens, d.model, COALESCE(d.status, 'complete')::"MessageStatus", d.error, d.prompt, d.completion, d.cached, d.request, d.version, now()
      FROM bumped,
           unnest(${column((row) => row.role)}::text[], ${column((row) => row.content)}::text[],
                  ${column((row) => (row.toolCalls === undefined ? null : JSON.stringify(row.toolCalls)))}::text[],
                  ${column((row) => row.tokenCount)}::int[], ${column((row) => row.model)}::text[], ${column((row) => row.status)}::text[],
                  ${column((row) => row.error)}::text[], ${column((row) => row.promptTokens)}::int[],
                  ${column((row) => row.completionTokens)}::int[], ${column((row) => row.cachedTokens)}::int[],
                  ${column((row) => row.requestTokens)}::int[], ${column((row) => row.versionOf)}::text[])
             WITH ORDINALITY AS d(role, content, calls, tokens, model, status, error, prompt, completion, cached, request, version, n)
      RETURNING ${MESSAGE_COLUMNS}
    )
    SELECT inserted.*, bumped.model AS "headModel", bumped."systemPrompt" AS "headSystemPrompt", bumped."lastSeq" AS "headLastSeq",
           bumped."historyVersion" AS "headHistoryVersion", bumped."contextVersion" AS "headContextVersion",
           bumped."settingsOverrides" AS "settingsConversation", ${settingsLayerColumns(userId)}
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
  const settingsLayers = { defaults: first.settingsDefaults, user: first.settingsUser, conversation: first.settingsConversation };
  const rows = returned.map(messageOnly).sort((a, b) => a.seq - b.seq);
  keepAppended(db, conversationId, head, rows);
  return { rows, head, settingsLayers };
}

/**
 * Stores a user message or a reply together with `row`'s change of the conversation row,
 * in one statement; null when the row did not meet `row.where` (or is not the user's).
 */
export function appendWithRowChange(db: Db, userId: string, conversationId: string, draft: MessageDraft, row: ConversationRowChange): Promise<Appended | null> {
  if (draft.role === "tool") throw new Error("a tool result is checked against its call in a transaction");
  return appendInOneStatement(db, userId, conversationId, [draft], row);
}

/**
 * Appends messages with strictly increasing sequence numbers. The counter lives on the
 * conversation row; bumping it with UPDATE ... RETURNING takes that row's lock, so
 * concurrent writers to one conversation are serialized and never collide.
 */
export async function appendMessages(db: Db, userId: string, conversationId: string, drafts: MessageDraft[]): Promise<MessageView[]> {
  return (await appendMessageRows(db, userId, conversationId, drafts)).map(toMessageView);
}

/** appendMessages, returning the stored rows (the turn also adds them to the transcript it holds). */
export async function appendMessageRows(db: Db, userId: string, conversationId: string, drafts: MessageDraft[]): Promise<Message[]> {
  if (drafts.length === 0) return [];
  if (drafts.every((draft) => draft.role !== "tool")) {
    const appended = await appendInOneStatement(db, userId, conversationId, drafts, NO_ROW_CHANGE);
    if (!appended) throw notFound("conversation", conversationId);
    return appended.rows;
  }
  return db.$transaction((tx) => appendRowsInTx(tx, userId, conversationId, drafts));
}

async function appendRowsInTx(tx: Prisma.TransactionClient, userId: string, conversationId: string, drafts: MessageDraft[]): Promise<Message[]> {
  if (drafts.length === 0) return [];
  const bumped = await tx.$queryRaw<{ lastSeq: number }[]>`
    UPDATE "Conversation" SET "lastSeq" = "lastSeq" + ${drafts.length}, "updatedAt" = now()
    WHERE id = ${conversationId} AND "userId" = ${userId} RETURNING "lastSeq"`;
  const lastSeq = bumped[0]?.lastSeq;
  if (lastSeq == null) throw notFound("conversation", conversationId);
  await checkToolResults(tx, conversationId, drafts);
  const firstSeq = lastSeq - drafts.length + 1;
  const rows = await tx.message.createManyAndReturn({
    data: drafts.map((draft, index) => draftData(conversationId, firstSeq + index, draft)),
  });
  return rows.sort((a, b) => a.seq - b.seq);
}

/**
 * Takes the conversation row's lock (false: not the user's conversation). A statement
 * that changes messages moves the row's contextVersion (a database trigger), so it must
 * come after this: taking the row first, like every other writer, never deadlocks.
 */
export async function lockConversation(tx: Prisma.TransactionClient, userId: string, conversationId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Conversation" WHERE id = ${conversationId} AND "userId" = ${userId} FOR UPDATE`;
  return rows.length > 0;
}

export async function setPinned(db: Db, userId: string, conversationId: string, seq: number, pinned: boolean): Promise<MessageView> {
  const row = await db.$transaction(async (tx) => {
    if (!(await lockConversation(tx, userId, conversationId))) return null;
    const { count } = await tx.message.updateMany({ where: { conversationId, seq, rewoundAt: null }, data: { pinned } });
    return count === 0 ? null : tx.message.findUniqueOrThrow({ where: { conversationId_seq: { conversationId, seq } } });
  });
  if (!row) throw notFound("message", `${conversationId}#${seq}`);
  return toMessageView(row);
}

export async function getMessage(db: Db, userId: string, conversationId: string, seq: number): Promise<MessageView> {
  const row = await db.message.findFirst({ where: { conversationId, seq, conversation: { userId } } });
  if (!row || row.rewoundAt) throw notFound("message", `${conversationId}#${seq}`);
  return toMessageView(row);
}

/** Sequence numbers of the last `count` visible user messages, oldest first. */
export async function lastUserSeqs(db: Db, userId: string, conversationId: string, count: number): Promise<number[]> {
  const rows = await db.message.findMany({
    where: { conversationId, conversation: { userId }, role: "user", rewoundAt: null },
    orderBy: { seq: "desc" },
    take: count,
    select: { seq: true },
  });
  return rows.map((row) => row.seq).reverse();
}

/** The newest shown message: what "Continue" extends. */
export async function lastShownMessage(db: Db, userId: string, conversationId: string): Promise<Message | null> {
  return db.message.findFirst({ where: { conversationId, rewoundAt: null, conversation: { userId } }, orderBy: { seq: "desc" } });
}

export type ReplyExtension = {
  text: string;
  status: "complete" | "stopped";
  usage?: CallUsage;
  requestTokens: number;
};

/**
 * Appends a continuation to a stored reply (after Stop, "Continue"): the text joins the
 * reply, the usage becomes the continuation call's (the calibration pairs a request with
 * its own prompt count), and the history version moves so open tabs and prepared
 * compactions see the change. One transaction, under the conversation's row lock.
 */
export async function extendReply(
  db: Db,
  userId: string,
  conversationId: string,
  messageId: string,
  extension: ReplyExtension,
  countTokens: (content: string) => number | Promise<number>,
): Promise<MessageView> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Conversation" SET "historyVersion" = "historyVersion" + 1, "updatedAt" = now()
      WHERE id = ${conversationId} AND "userId" = ${userId} RETURNING id`;
    if (locked.length === 0) throw notFound("conversation", conversationId);
    const row = await tx.message.findFirst({ where: { id: messageId, conversationId, rewoundAt: null } });
    if (!row) throw notFound("message", messageId);
    const content = row.content + extension.text;
    const updated = await tx.message.update({
      where: { id: row.id },
      data: {
        content,
        tokenCount: await countTokens(content),
        status: extension.status,
        requestTokens: extension.requestTokens,
        ...(extension.usage
          ? {
              promptTokens: extension.usage.promptTokens,
              cachedTokens: extension.usage.cachedTokens,
              completionTokens: (row.completionTokens ?? 0) + extension.usage.completionTokens,
            }
          : {}),
      },
    });
    return toMessageView(updated);
  });
}
