// Versions of a place in the conversation: a regenerated reply or an edited user
// message is a new version of the message it replaced, and the replaced one is kept
// with everything that followed it (its branch). The active branch is the messages not
// rewound, in seq order; all versions of a place share what comes before it, so every
// shown message from the place's first version on belongs to the shown version's branch.
import type { Db } from "./client.ts";
import type { Message } from "./generated/client.ts";
import { toMessageView } from "./mappers.ts";
import { lockConversationRow } from "./messages.ts";
import { AppError, notFound } from "../errors.ts";
import type { MessageVersions, MessageView } from "../views";

type VersionRow = { id: string; seq: number; versionOf: string | null; rewoundAt: Date | null; branchOf: string | null };

const VERSION_COLUMNS = { id: true, seq: true, versionOf: true, rewoundAt: true, branchOf: true } as const;

const rootOf = (row: Pick<VersionRow, "id" | "versionOf">) => row.versionOf ?? row.id;

/** A version can be switched to when it is shown, or hidden as the head of its own kept branch. */
const reachable = (row: VersionRow) => row.rewoundAt == null || row.branchOf === row.id;

/** Every reachable version of the places `roots` names, oldest first. */
async function versionsOf(db: Db, conversationId: string, roots: string[]): Promise<Map<string, VersionRow[]>> {
  const rows = await db.message.findMany({
    where: { conversationId, OR: [{ id: { in: roots } }, { versionOf: { in: roots } }] },
    select: VERSION_COLUMNS,
    orderBy: { seq: "asc" },
  });
  const groups = new Map<string, VersionRow[]>();
  for (const row of rows.filter(reachable)) groups.set(rootOf(row), [...(groups.get(rootOf(row)) ?? []), row]);
  return groups;
}

/** The views of shown messages, with their versions where a place has more than one. */
export async function viewsWithVersions(db: Db, conversationId: string, rows: Message[]): Promise<MessageView[]> {
  if (rows.length === 0) return [];
  const groups = await versionsOf(db, conversationId, [...new Set(rows.map(rootOf))]);
  const later = await branchSizes(db, conversationId, [...groups.values()].filter((group) => group.length > 1).flat().map((version) => version.id));
  return rows.map((row) => {
    const message = toMessageView(row);
    const group = groups.get(rootOf(row)) ?? [];
    if (group.length < 2) return message;
    const versions: MessageVersions = {
      ids: group.map((version) => version.id),
      current: group.findIndex((version) => version.id === row.id),
      elsewhere: group.reduce((sum, version) => (version.id === row.id ? sum : sum + (later.get(version.id) ?? 0)), 0),
    };
    return { ...message, versions };
  });
}

/** How many messages each version's kept branch holds after the version itself: what switching to it brings back. */
async function branchSizes(db: Db, conversationId: string, versionIds: string[]): Promise<Map<string, number>> {
  if (versionIds.length === 0) return new Map();
  const counts = await db.message.groupBy({
    by: ["branchOf"],
    where: { conversationId, branchOf: { in: versionIds }, id: { notIn: versionIds } },
    _count: { _all: true },
  });
  return new Map(counts.map((count) => [count.branchOf!, count._count._all]));
}

/** A message of the user's conversation, shown or hidden; another user's id is not found. */
async function ownedMessage(db: Db, userId: string, conversationId: string, messageId: string) {
  const row = await db.message.findFirst({ where: { id: messageId, conversationId, conversation: { userId } } });
  if (!row) throw notFound("message", messageId);
  return row;
}

export type VersionSwitch =
  | { kind: "shown" }
  | { kind: "switch"; fromSeq: number; current: string; target: string };

/**
 * What showing version `messageId` takes: the rewind point (the place's first version)
 * and the version shown now, whose branch is kept for switching back.
 */
export async function planVersionSwitch(db: Db, userId: string, conversationId: string, messageId: string): Promise<VersionSwitch> {
  const target = await ownedMessage(db, userId, conversationId, messageId);
  if (target.rewoundAt == null) return { kind: "shown" };
  const group = (await versionsOf(db, conversationId, [rootOf(target)])).get(rootOf(target)) ?? [];
  if (!group.some((row) => row.id === target.id)) throw new AppError("invalid_input", "This message is not a version that can be shown.");
  const current = group.find((row) => row.rewoundAt == null);
  if (!current) throw new AppError("invalid_input", "This version's place is not in the conversation as shown; switch the earlier version first.");
  return { kind: "switch", fromSeq: group[0]!.seq, current: current.id, target: target.id };
}

/** Where a new version of `messageId` goes: the message's place (its first version) and its own seq. */
export async function versionPlace(db: Db, userId: string, conversationId: string, messageId: string): Promise<{ root: string; seq: number }> {
  const row = await ownedMessage(db, userId, conversationId, messageId);
  return { root: rootOf(row), seq: row.seq };
}

/** Records a stored message as a new version of the place `root` (a regenerated reply is stored by the turn first). */
export async function markVersion(db: Db, userId: string, conversationId: string, messageId: string, root: string): Promise<void> {
  await db.$transaction(async (tx) => {
    if (await lockConversationRow(tx, userId, conversationId)) await tx.message.updateMany({ where: { id: messageId, conversationId }, data: { versionOf: root } });
  });
}

/**
 * The reply that `seq` belongs to, by its first message: the first shown message after
 * the last shown user message before `seq`. Regenerating any message of a reply (a tool
 * call, its result, the final answer) regenerates the whole reply.
 */
export async function replyHead(db: Db, userId: string, conversationId: string, seq: number) {
  const target = await db.message.findFirst({ where: { conversationId, seq, rewoundAt: null, conversation: { userId } } });
  if (!target) throw notFound("message", `${conversationId}#${seq}`);
  if (target.role === "user") throw new AppError("invalid_input", "Only a reply can be regenerated; edit your own message instead.");
  if (target.status === "streaming") throw new AppError("invalid_input", "This reply is not finished yet.");
  const user = await db.message.findFirst({
    where: { conversationId, role: "user", rewoundAt: null, seq: { lt: seq } },
    orderBy: { seq: "desc" },
    select: { seq: true },
  });
  if (!user) throw new AppError("invalid_input", "This reply answers no message of yours, so it cannot be regenerated.");
  const head = await db.message.findFirst({ where: { conversationId, rewoundAt: null, seq: { gt: user.seq } }, orderBy: { seq: "asc" } });
  return head ?? target;
}
