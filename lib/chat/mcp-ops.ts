// Tool servers as the browser sees them: the admin configures them (stdio runs a process
// on this machine, so nobody else may), a conversation's owner switches them on or off
// for it. Views carry the names of secrets, never their values.
import { z } from "zod";
import { getDb } from "../db/client";
import {
  conversationMcpServers,
  createMcpServer,
  deleteMcpServer,
  getMcpServer,
  listMcpServers,
  setConversationMcpServer,
  updateMcpServer,
  type McpServerRecord,
} from "../db/mcp-servers";
import { serverInputSchema, transportFromInput, transportView, type McpTransportView } from "../mcp/config";
import { isServerDown, mcpPool, type ServerStatus, type ServerTarget } from "../mcp/pool";
import { type Actor, assertAdmin, parse } from "./actor";
import { idSchema } from "./inputs";

export type McpToolView = { name: string; description: string; readOnly: boolean };
export type McpStatusView =
  | { state: "unknown" }
  | { state: "up"; tools: McpToolView[]; skipped: { name: string; reason: string }[] }
  | { state: "down"; reason: string };

export type McpServerView = {
  id: string;
  name: string;
  enabled: boolean;
  onByDefault: boolean;
  transport: McpTransportView | null;
  status: McpStatusView;
};

export type ConversationMcpServerView = { id: string; name: string; on: boolean; status: McpStatusView };

export const updateServerInput = serverInputSchema.extend({ id: idSchema });
export const conversationServerInput = z.object({ conversationId: idSchema, serverId: idSchema, on: z.boolean() });

function targetOf(record: McpServerRecord): ServerTarget | null {
  return record.transport ? { id: record.id, name: record.name, transport: record.transport, updatedAt: record.updatedAt } : null;
}

function statusView(status: ServerStatus): McpStatusView {
  if (status.state === "up") {
    return { state: "up", tools: status.tools.map(({ name, description, readOnly }) => ({ name, description, readOnly })), skipped: status.skipped };
  }
  return status.state === "down" ? status : { state: "unknown" };
}

/** The status the pool knows, or, with `connect`, after connecting and listing the tools. */
async function statusOf(record: McpServerRecord, connect: boolean): Promise<McpStatusView> {
  if (!record.transport) return { state: "down", reason: record.invalidReason ?? "invalid settings" };
  const target = targetOf(record)!;
  if (!record.enabled) return { state: "unknown" };
  if (connect) {
    try {
      await mcpPool().connection(target).listTools();
    } catch (error) {
      if (!isServerDown(error)) throw error;
    }
  }
  return statusView(mcpPool().status(target));
}

async function view(record: McpServerRecord, connect: boolean): Promise<McpServerView> {
  return {
    id: record.id,
    name: record.name,
    enabled: record.enabled,
    onByDefault: record.onByDefault,
    transport: record.transport ? transportView(record.transport) : null,
    status: await statusOf(record, connect),
  };
}

/** Every server with its status; `connect` tries each enabled one (the admin page's "check"). */
export async function listToolServers(actor: Actor, connect = false): Promise<McpServerView[]> {
  assertAdmin(actor);
  const records = await listMcpServers(await getDb());
  return Promise.all(records.map((record) => view(record, connect)));
}

export async function createToolServer(actor: Actor, input: unknown): Promise<McpServerView> {
  assertAdmin(actor);
  const { transport, ...rest } = parse(serverInputSchema, input);
  const record = await createMcpServer(await getDb(), { ...rest, transport: transportFromInput(transport) });
  return view(record, false);
}

export async function updateToolServer(actor: Actor, input: unknown): Promise<McpServerView> {
  assertAdmin(actor);
  const { id, transport, ...rest } = parse(updateServerInput, input);
  const db = await getDb();
  const stored = await getMcpServer(db, id);
  const record = await updateMcpServer(db, id, { ...rest, transport: transportFromInput(transport, stored.transport ?? undefined) });
  // The old connection (and its process) goes; the next use connects with the new settings.
  await mcpPool().forget(id);
  return view(record, false);
}

export async function deleteToolServer(actor: Actor, id: unknown): Promise<{ id: string }> {
  assertAdmin(actor);
  const serverId = parse(idSchema, id);
  await deleteMcpServer(await getDb(), serverId);
  await mcpPool().forget(serverId);
  return { id: serverId };
}

/** The enabled servers and whether this conversation uses each (any user, for their own conversation). */
export async function conversationToolServers(actor: Actor, conversationId: unknown): Promise<ConversationMcpServerView[]> {
  const id = parse(idSchema, conversationId);
  const entries = await conversationMcpServers(await getDb(), actor.id, id);
  return Promise.all(
    entries.map(async ({ server, on }) => ({ id: server.id, name: server.name, on, status: await statusOf(server, false) })),
  );
}

export async function setConversationToolServer(actor: Actor, input: unknown): Promise<ConversationMcpServerView[]> {
  const { conversationId, serverId, on } = parse(conversationServerInput, input);
  await setConversationMcpServer(await getDb(), actor.id, conversationId, serverId, on);
  return conversationToolServers(actor, conversationId);
}

