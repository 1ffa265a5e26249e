// The turn gate: one turn at a time per conversation, enforced by the database so it
// holds across server processes (a lease on the conversation row, taken with the user's
// message). A second send while a turn runs is refused with "busy" (HTTP 409).
import { describe, expect, it, vi } from "vitest";
import * as ops from "../../lib/chat/operations";
import { openTurnGate } from "../../lib/chat/concurrency";
import { takeTurnLease, TURN_BUSY_MESSAGE } from "../../lib/db/turn-lease";
import { logger } from "../../lib/log/logger";
import { collect, newConversation, refusal, send, setupHarness } from "../support/harness";

const h = setupHarness();

describe("one turn at a time per conversation", () => {
  it("refuses a second send while a reply is being written, and stores nothing for it", async () => {
    const conversation = await newConversation();
    const first = await ops.startTurn(h.user, { conversationId: conversation.id, content: "first REPLY_WORDS=40" });
    const error = await refusal(ops.startTurn(h.user, { conversationId: conversation.id, content: "second, too early" }));
    expect(error.code).toBe("busy");
    expect(error.status).toBe(409);
    expect(error.message).toBe(TURN_BUSY_MESSAGE);
    expect(await refusal(ops.startTurn(h.user, { conversationId: conversation.id, retry: true })).then((e) => e.code)).toBe("busy");

    await collect(first);
    // The turn released the gate: the next send runs, after the first reply.
    await send(conversation.id, "second, in turn");
    const rows = await h.db.message.findMany({ where: { conversationId: conversation.id }, orderBy: { seq: "asc" } });
    expect(rows.map((row) => [row.role, row.content.slice(0, 15)])).toEqual([
      ["user", "first REPLY_WOR"],
      ["assistant", expect.any(String)],
      ["user", "second, in turn"],
      ["assistant", expect.any(String)],
    ]);
  });

  it("is held in the database: a lease of another process refuses, an expired one does not", async () => {
    const conversation = await newConversation();
    // Another server instance's turn, as the database sees it.
    await takeTurnLease(h.db, h.user.id, conversation.id, { leaseId: "other-process", leaseMs: 60_000 });
    expect((await refusal(ops.startTurn(h.user, { conversationId: conversation.id, content: "hello" }))).code).toBe("busy");
    expect(await h.db.message.count({ where: { conversationId: conversation.id } })).toBe(0);
    expect((await ops.changeState(h.user, conversation.id)).turnRunning).toBe(true);

    // That process died: its lease runs out and the conversation is free again.
    await h.db.$executeRaw`UPDATE "Conversation" SET "turnLeaseUntil" = now() - interval '1 second' WHERE id = ${conversation.id}`;
    expect((await ops.changeState(h.user, conversation.id)).turnRunning).toBe(false);
    const events = await send(conversation.id, "hello again");
    expect(events.at(-1)?.type).toBe("done");
    const row = await h.db.conversation.findUniqueOrThrow({ where: { id: conversation.id } });
    expect([row.turnLeaseId, row.turnLeaseUntil]).toEqual([null, null]);
  });

  it("releases the gate when a turn fails, is stopped or an edit is refused", async () => {
    const conversation = await newConversation();
    await send(conversation.id, "one");
    const controller = new AbortController();
    const events = await ops.startTurn(h.user, { conversationId: conversation.id, content: "long REPLY_WORDS=400" }, controller.signal);
    controller.abort();
    await collect(events);
    const refusedEdit = await refusal(ops.startTurn(h.user, { conversationId: conversation.id, editSeq: 2, content: "not mine" }));
    expect(refusedEdit.code).toBe("invalid_input");
    expect((await send(conversation.id, "three")).at(-1)?.type).toBe("done");
  });

  it("moves the change state with every stored message", async () => {
    const conversation = await newConversation();
    const before = await ops.changeState(h.user, conversation.id);
    await send(conversation.id, "hello");
    const after = await ops.changeState(h.user, conversation.id);
    expect(after.version).not.toBe(before.version);
    expect(after.turnRunning).toBe(false);
  });

  it("says so in the log when a running turn finds its lease taken by another turn", async () => {
    const conversation = await newConversation();
    const warn = vi.spyOn(logger, "warn");
    // A short lease, so the gate renews every 333 ms.
    process.env.STRATA_TURN_LEASE_MS = "1000";
    const gate = await openTurnGate(h.user.id, conversation.id);
    try {
      // The lease ran out and another process's turn took it (as after a renewal came too late).
      await h.db.conversation.update({ where: { id: conversation.id }, data: { turnLeaseId: "other-process" } });
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.objectContaining({ conversationId: conversation.id }), expect.stringMatching(/lost its lease/)), {
        timeout: 5_000,
        interval: 100,
      });
    } finally {
      await gate.close();
      delete process.env.STRATA_TURN_LEASE_MS;
      warn.mockRestore();
    }
  });
});
