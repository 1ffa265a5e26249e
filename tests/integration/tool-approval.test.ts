// The user's answer to a waiting tool call, as the server action and the API take it:
// only the conversation's owner, only a call that waits; and an answer received by an
// instance whose process does not run the turn reaches the one that does, through
// PostgreSQL (here the same process listens, as every instance does).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as ops from "../../lib/chat/operations";
import { answerRoutedApproval } from "../../lib/chat/approval-ops";
import { registerTurn } from "../../lib/chat/running-turns";
import { openTurnGate } from "../../lib/chat/concurrency";
import { waitForApproval, waitingApprovalCount, type ApprovalDecision } from "../../lib/chat/tools/approval";
import { closeCluster, listenForStops } from "../../lib/db/cluster";
import { AppError } from "../../lib/errors";
import { newConversation, setupHarness } from "../support/harness";
import { signUp, uniqueEmail, type TestUser } from "../support/accounts";

const h = setupHarness();
const ends = new AbortController();
let stranger: TestUser;

beforeAll(async () => {
  stranger = await signUp(uniqueEmail("stranger"));
  listenForStops(() => undefined, (payload) => void answerRoutedApproval(payload));
});
afterAll(async () => {
  ends.abort();
  await closeCluster();
});

const wait = (conversationId: string, callId: string) =>
  waitForApproval({ userId: h.user.id, conversationId, callId, timeoutMs: 600_000, signal: ends.signal });

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

describe("answering a waiting tool call", () => {
  it("settles the owner's call where the turn runs; another user gets not found and the call keeps waiting", async () => {
    const conversation = await newConversation();
    const turn = registerTurn(conversation.id);
    try {
      const decision = wait(conversation.id, "call_write");
      expect(await refusal(ops.answerToolApproval(stranger, { conversationId: conversation.id, callId: "call_write", approved: true }))).toBe("not_found");
      expect(waitingApprovalCount()).toBe(1);
      await expect(ops.answerToolApproval(h.user, { conversationId: conversation.id, callId: "call_write", approved: false })).resolves.toEqual({
        callId: "call_write",
        approved: false,
        routed: false,
      });
      await expect(decision).resolves.toEqual({ kind: "denied", reason: "user" });
      // Answered already, with its turn running here: refused as not waiting.
      expect(await refusal(ops.answerToolApproval(h.user, { conversationId: conversation.id, callId: "call_write", approved: true }))).toBe("conflict");
    } finally {
      turn.release();
    }
  });

  it("a page that missed the turn's events finds the waiting calls in the conversation's change state", async () => {
    const conversation = await newConversation();
    const gate = await openTurnGate(h.user.id, conversation.id);
    try {
      const prompt = { callId: "call_reload", toolName: "files__write_file", server: "files", arguments: '{"path":"a.txt"}', expiresAt: new Date(Date.now() + 600_000).toISOString() };
      const decision = waitForApproval({ userId: h.user.id, conversationId: conversation.id, callId: "call_reload", timeoutMs: 600_000, signal: ends.signal, prompt });
      expect(await ops.changeState(h.user, conversation.id)).toMatchObject({ turnRunning: true, approvals: [prompt] });
      expect(await refusal(ops.changeState(stranger, conversation.id))).toBe("not_found");
      const turn = registerTurn(conversation.id);
      await ops.answerToolApproval(h.user, { conversationId: conversation.id, callId: "call_reload", approved: true });
      turn.release();
      await expect(decision).resolves.toEqual({ kind: "approved" });
      expect((await ops.changeState(h.user, conversation.id)).approvals).toEqual([]);
    } finally {
      await gate.close();
    }
  });

  it("'always' stores the tool for the conversation and approves its other waiting calls; the owner can take it back", async () => {
    const conversation = await newConversation();
    const turn = registerTurn(conversation.id);
    const prompt = (callId: string, toolName: string) => ({ callId, toolName, server: "files", arguments: "{}", expiresAt: new Date(Date.now() + 600_000).toISOString() });
    const waitFor = (callId: string, toolName: string) =>
      waitForApproval({ userId: h.user.id, conversationId: conversation.id, callId, timeoutMs: 600_000, signal: ends.signal, prompt: prompt(callId, toolName) });
    try {
      const [first, second, otherTool] = [waitFor("w1", "files__write_file"), waitFor("w2", "files__write_file"), waitFor("d1", "files__delete_file")];
      await ops.answerToolApproval(h.user, { conversationId: conversation.id, callId: "w1", approved: true, always: true });
      await expect(Promise.all([first, second])).resolves.toEqual([{ kind: "approved" }, { kind: "approved" }]);
      expect(waitingApprovalCount()).toBe(1);
      expect(await ops.allowedTools(h.user, conversation.id)).toEqual({ tools: [{ server: "files", toolName: "files__write_file" }] });
      expect(await refusal(ops.allowedTools(stranger, conversation.id))).toBe("not_found");
      expect(await refusal(ops.disallowTool(stranger, { conversationId: conversation.id, server: "files", toolName: "files__write_file" }))).toBe("not_found");
      // "Always" on a denial stores nothing.
      await ops.answerToolApproval(h.user, { conversationId: conversation.id, callId: "d1", approved: false, always: true });
      await expect(otherTool).resolves.toEqual({ kind: "denied", reason: "user" });
      expect((await ops.allowedTools(h.user, conversation.id)).tools).toHaveLength(1);
      await expect(ops.disallowTool(h.user, { conversationId: conversation.id, server: "files", toolName: "files__write_file" })).resolves.toEqual({ removed: true });
      expect((await ops.allowedTools(h.user, conversation.id)).tools).toEqual([]);
    } finally {
      turn.release();
    }
  });

  it("refuses input it cannot act on, before looking anything up", async () => {
    const conversation = await newConversation();
    for (const input of [
      { conversationId: conversation.id, callId: "", approved: true },
      { conversationId: conversation.id, callId: "c", approved: "yes" },
      { conversationId: "not-an-id", callId: "c", approved: true },
      { conversationId: conversation.id, approved: true },
    ]) {
      expect(await refusal(ops.answerToolApproval(h.user, input))).toBe("invalid_input");
    }
  });

  it("reaches the call through the database when the turn does not run in the process that received the answer", async () => {
    const conversation = await newConversation();
    let settled: ApprovalDecision | undefined;
    const decision = wait(conversation.id, "call_elsewhere").then((value) => (settled = value));
    // The listening connection comes up in the background: answer again until it has.
    for (let attempt = 0; attempt < 100 && !settled; attempt++) {
      await expect(ops.answerToolApproval(h.user, { conversationId: conversation.id, callId: "call_elsewhere", approved: true })).resolves.toMatchObject({ routed: true });
      await Promise.race([decision, new Promise((resolve) => setTimeout(resolve, 100))]);
    }
    expect(settled).toEqual({ kind: "approved" });
  });

  it("an answer passed on is settled only for the call's own user; a malformed one is ignored", async () => {
    const conversation = await newConversation();
    const decision = wait(conversation.id, "call_routed");
    await answerRoutedApproval("{not json");
    await answerRoutedApproval(JSON.stringify({ userId: stranger.id, conversationId: conversation.id, callId: "call_routed", approved: true }));
    expect(waitingApprovalCount()).toBe(1);
    await answerRoutedApproval(JSON.stringify({ userId: h.user.id, conversationId: conversation.id, callId: "call_routed", approved: false }));
    await expect(decision).resolves.toEqual({ kind: "denied", reason: "user" });
  });

  it("a turn that waits longer than the gate's cap keeps its lease; a gate whose turn never started does not", async () => {
    const previousLease = process.env.STRATA_TURN_LEASE_MS;
    process.env.STRATA_TURN_LEASE_MS = "1000";
    const running = await newConversation();
    const neverStarted = await newConversation();
    const runningGate = await openTurnGate(h.user.id, running.id);
    const idleGate = await openTurnGate(h.user.id, neverStarted.id);
    const turn = registerTurn(running.id);
    try {
      // 31 minutes later by the process's clock; the renewals (every third of the lease) read it.
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 31 * 60_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect((await ops.changeState(h.user, running.id)).turnRunning).toBe(true);
      expect((await ops.changeState(h.user, neverStarted.id)).turnRunning).toBe(false);
    } finally {
      vi.useRealTimers();
      turn.release();
      await Promise.all([runningGate.close(), idleGate.close()]);
      if (previousLease === undefined) delete process.env.STRATA_TURN_LEASE_MS;
      else process.env.STRATA_TURN_LEASE_MS = previousLease;
    }
  });
});
