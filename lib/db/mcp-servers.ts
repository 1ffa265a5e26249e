// Tool servers (Model Context Protocol): the admin's list for the instance, and each
// conversation's switches. The stored transport is parsed on every read, so a row
// edited by hand into something invalid is reported, never connected to.
import type { Db } from "./client";
import { z } from "zod";
import { Prisma } from "./generated/client";
import { assertOwnsConversation } from "./conversations";
import { AppError, notFound } from "../errors";
import { transportSchema, type McpTransport } from "../mcp/config";

export type McpServerRecord = {
  id: string;
  name: string;
  /** Null when the stored JSON is not a valid transport (then `invalidReason` says why). */
  transport: McpTransport | null;
  invalidReason?: string;
  enabled: boolean;
  onByDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
};

// A server row as the queries return it; the turn's statement returns them as JSON, hence the date coercion.
const rowSchema = z.object({
  id: z.string(),
  name: z.string(),
  transport: z.unknown(),
  enabled: z.boolean(),
  onByDefault: z.boolean(),
  createdAt: z.coerce.date(),
  updatedAt: z.coerce.date(),
});
type Row = z.infer<typeof rowSchema>;

function toRecord(row: Row): McpServerRecord {
  const parsed = transportSchema.safeParse(row.transport);
  const base = { id: row.id, name: row.name, enabled: row.enabled, onByDefault: row.onByDefault, createdAt: row.createdAt, updatedAt: row.updatedAt };
  return parsed.success ? { ...base, transport: parsed.data } : { ...base, transport: null, invalidReason: "The stored connection settings are invalid." };
}

const UNIQUE_VIOLATION = "P2002";

function nameTaken(error: unknown, name: string): never {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === UNIQUE_VIOLATION) {
    throw new AppError("conflict", `A tool server named "${name}" exists already.`, { name: ["This name is taken."] });
  }
  throw error;
}

export async function listMcpServers(db: Db): Promise<McpServerRecord[]> {
  return (await db.mcpServer.findMany({ orderBy: { name: "asc" } })).map(toRecord);
}

export async function getMcpServer(db: Db, id: string): Promise<McpServerRecord> {
  const row = await db.mcpServer.findUnique({ where: { id } });
  if (!row) throw notFound("tool server", id);
  return toRecord(row);
}

export type McpServerWrite = { name: string; transport: McpTransport; enabled: boolean; onByDefault: boolean };

export async function createMcpServer(db: Db, server: McpServerWrite): Promise<McpServerRecord> {
  try {
    return toRecord(await db.mcpServer.create({ data: { ...server, transport: server.transport as Prisma.InputJsonValue } }));
  } catch (error) {
    nameTaken(error, server.name);
  }
}

export async function updateMcpServer(db: Db, id: string, server: McpServerWrite): Promise<McpServerRecord> {
  try {
    const { count } = await db.mcpServer.updateMany({ where: { id }, data: { ...server, transport: server.transport as Prisma.InputJsonValue } });
    if (count === 0) throw notFound("tool server", id);
  } catch (error) {
    nameTaken(error, server.name);
  }
  return getMcpServer(db, id);
}

export async function deleteMcpServer(db: Db, id: string): Promise<void> {
  const { count } = await db.mcpServer.deleteMany({ where: { id } });
  if (count === 0) throw notFound("tool server", id);
}

/**
 * Adds the servers whose names are not taken yet, in one transaction; returns the names added.
 * For the demo's servers, which the admin may since have edited or removed.
 */
export async function addMissingMcpServers(db: Db, servers: readonly McpServerWrite[]): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const added: string[] = [];
    for (const server of servers) {
      const { count } = await tx.mcpServer.createMany({ data: [{ ...server, transport: server.transport as Prisma.InputJsonValue }], skipDuplicates: true });
      if (count > 0) added.push(server.name);
    }
    return added;
  });
}

/** A server as one conversation sees it: whether the conversation uses it. */
export type ConversationMcpServer = { server: McpServerRecord; on: boolean };

/** Every enabled server with whether the conversation uses it (its own switch, else the server's default). */
export async function conversationMcpServers(db: Db, userId: string, conversationId: string): Promise<ConversationMcpServer[]> {
  await assertOwnsConversation(db, userId, conversationId);
  const [servers, switches] = await Promise.all([
    db.mcpServer.findMany({ where: { enabled: true }, orderBy: { name: "asc" } }),
    db.conversationMcpServer.findMany({ where: { conversationId } }),
  ]);
  const own = new Map(switches.map((row) => [row.serverId, row.on]));
  return servers.map((row) => ({ server: toRecord(row), on: own.get(row.id) ?? row.onByDefault }));
}

/**
 * The servers a turn of the conversation uses (enabled, switched on), in one query:
 * read when the turn starts and again before each call, as the user may switch one off
 * meanwhile. The caller has checked that `userId` owns the conversation.
 */
export async function mcpServersInUse(db: Db, userId: string, conversationId: string): Promise<McpServerRecord[]> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT s.id, s.name, s.transport, s.enabled, s."onByDefault", s."createdAt", s."updatedAt" ${serversInUseFrom(userId, conversationId)}
    ORDER BY s.name`;
  return rows.map(toRecord);
}

/**
 * The servers in use as one JSON column, for the statement that stores a turn's message
 * (one round trip less on every turn); read back with serversInUseOf.
 */
export function serversInUseColumn(userId: string, conversationId: string): Prisma.Sql {
  return Prisma.sql`(SELECT COALESCE(json_agg(json_build_object('id', s.id, 'name', s.name, 'transport', s.transport, 'enabled', s.enabled,
      'onByDefault', s."onByDefault", 'createdAt', s."createdAt", 'updatedAt', s."updatedAt") ORDER BY s.name), '[]'::json)
    ${serversInUseFrom(userId, conversationId)})`;
}

// The conversation's own switch where it has one, the server's default otherwise; another
// user's conversation has no switches.
function serversInUseFrom(userId: string, conversationId: string): Prisma.Sql {
  return Prisma.sql`FROM "McpServer" s
    LEFT JOIN "ConversationMcpServer" cs
      ON cs."serverId" = s.id AND cs."conversationId" = ${conversationId}
      AND EXISTS (SELECT 1 FROM "Conversation" c WHERE c.id = ${conversationId} AND c."userId" = ${userId})
    WHERE s.enabled AND COALESCE(cs."on", s."onByDefault")`;
}

/** The column serversInUseColumn made, as records. */
export function serversInUseOf(column: unknown): McpServerRecord[] {
  return z.array(rowSchema).parse(column).map(toRecord);
}

/** The conversation's own switch for one server. */
export async function setConversationMcpServer(db: Db, userId: string, conversationId: string, serverId: string, on: boolean): Promise<void> {
  await assertOwnsConversation(db, userId, conversationId);
  const server = await db.mcpServer.findFirst({ where: { id: serverId, enabled: true }, select: { id: true } });
  if (!server) throw notFound("tool server", serverId);
  await db.conversationMcpServer.upsert({
    where: { conversationId_serverId: { conversationId, serverId } },
    create: { conversationId, serverId, on },
    update: { on },
  });
}
