// "Delete this message": hides one message of the conversation (with the tool call or
// results it belongs with), like "delete last turn" hides the last turn — marked rewound,
// on no version's branch, so nothing shows it again. Sequence numbers are permanent ids:
// the others keep theirs, and the export lists the hidden ones as rewound.
//
// A message inside an active compaction is refused, not deleted: its summary retells it,
// so deleting the original would either leave its words in the model's view (the summary
// stays) or lose the summary the user did not ask to lose (undoing it). The refusal says
// which compaction covers it.
import type { Db } from "./client.ts";
import type { Message } from "./generated/client.ts";
import { toolCallsOf } from "./mappers.ts";
import { AppError, notFound } from "../errors.ts";

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
type Row = Pick<Message, "id" | "seq" | "role" | "toolCalls" | "toolCallId" | "status">;
const COLUMNS = { id: true, seq: true, role: true, toolCalls: true, toolCallId: true, status: true } as const;

// How far back a tool result's call is looked for: a reply's tool results follow it directly.
const CALL_LOOKBACK = 500;

export type DeletedMessages = { seqs: number[] };

/** The tool-call group `target` belongs to: the calling reply and every result of its calls; alone otherwise. */
async function groupOf(tx: Tx, conversationId: string, target: Row): Promise<Row[]> {
  let caller: Row | null = null;
  if (target.role === "assistant" && toolCallsOf(target).length > 0) caller = target;
  if (target.role === "tool" && target.toolCallId) {
    const candidates = await tx.message.findMany({
      where: { conversationId, role: "assistant", rewoundAt: null, seq: { lt: target.seq, gte: target.seq - CALL_LOOKBACK } },
      orderBy: { seq: "desc" },
      select: COLUMNS,
    });
    caller = candidates.find((row) => toolCallsOf(row).some((call) => call.id === target.toolCallId)) ?? null;
  }
  if (!caller) return [target];
  const callIds = toolCallsOf(caller).map((call) => call.id);
  const results = await tx.message.findMany({
    where: { conversationId, role: "tool", rewoundAt: null, seq: { gt: caller.seq }, toolCallId: { in: callIds } },
    select: COLUMNS,
  });
  return [caller, ...results].sort((a, b) => a.seq - b.seq);
}

/**
 * Hides the message numbered `seq` (and its tool-call group) in one transaction, under the
 * conversation's row lock. Bumps historyVersion, so a compaction prepared from the old
 * history is refused at save time; the rewoundAt update moves contextVersion (trigger).
 */
export async function deleteMessage(db: Db, userId: string, conversationId: string, seq: number): Promise<DeletedMessages> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Conversation" SET "historyVersion" = "historyVersion" + 1 WHERE id = ${conversationId} AND "userId" = ${userId} RETURNING id`;
    if (locked.length === 0) throw notFound("conversation", conversationId);
    const target = await tx.message.findFirst({ where: { conversationId, seq, rewoundAt: null }, select: COLUMNS });
    if (!target) throw new AppError("not_found", `There is no message #${seq} in this conversation.`);
    const group = await groupOf(tx, conversationId, target);
    if (group.some((row) => row.status === "streaming")) {
      throw new AppError("conflict", `Message #${seq} is still being written; stop the reply first.`);
    }
    const seqs = group.map((row) => row.seq);
    const covering = await tx.compaction.findFirst({
      where: { conversationId, undoneAt: null, fromSeq: { lte: Math.max(...seqs) }, toSeq: { gte: Math.min(...seqs) } },
      orderBy: { level: "desc" },
      select: { fromSeq: true, toSeq: true, title: true },
    });
    if (covering) {
      const named = covering.title ? ` (“${covering.title}”)` : "";
      throw new AppError(
        "conflict",
        `Message #${seq} is inside the compressed range #${covering.fromSeq}–#${covering.toSeq}${named}: its summary retells it, so it cannot be deleted on its own. Nothing was deleted.`,
      );
    }
    const { count } = await tx.message.updateMany({
      where: { conversationId, id: { in: group.map((row) => row.id) }, rewoundAt: null },
      data: { rewoundAt: new Date(), branchOf: null },
    });
    await tx.conversation.update({ where: { id: conversationId }, data: { hiddenMessageCount: { increment: count } } });
    return { seqs };
  });
}
