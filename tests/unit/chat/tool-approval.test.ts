// A tool call that requires approval waits for the user's answer, which arrives from
// elsewhere (another request) while the turn waits: approved calls run, denied ones are
// stored without running, the wait ends denied on timeout or Stop, and only the waiting
// call of that conversation and user can be answered. The tools are plain TurnTool
// objects (data the seam takes), run through the real runner.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolCall } from "@/lib/compression/types";
import { DEFAULT_SETTINGS } from "@/lib/compression/settings";
import { turnEventSchema, type TurnEvent } from "@/lib/chat/events";
import { toolSetOf, runToolCall } from "@/lib/chat/tools";
import {
  answerApproval,
  askApprovals,
  runDecidedCall,
  waitForApproval,
  waitingApprovalCount,
  waitingPrompts,
  type Approvals,
} from "@/lib/chat/tools/approval";
import { STOPPED_WHILE_RUNNING } from "@/lib/chat/tools/stoppable";
import type { ToolCallContext, TurnTool } from "@/lib/chat/tools/types";

const USER = "user-a";
const CONVERSATION = "conversation-a";

/** A tool that records each call it runs; `requiresApproval` as given. */
function recordingTool(name: string, requiresApproval: boolean, server?: string) {
  const ran: string[] = [];
  const tool: TurnTool = {
    definition: { type: "function", function: { name, description: name, parameters: { type: "object", properties: {} } } },
    requiresApproval,
    ...(server ? { server } : {}),
    async run(call) {
      ran.push(call.id);
      return { outcome: "done", content: `${name} ran ${call.arguments}` };
    },
  };
  return { tool, ran };
}

const call = (id: string, name: string, args = "{}"): ToolCall => ({ id, name, arguments: args });

function context(signal: AbortSignal): ToolCallContext {
  return { userId: USER, conversationId: CONVERSATION, settings: DEFAULT_SETTINGS, signal };
}

/**
 * Drives askApprovals like the turn does, and answers each prompt with `answer` as soon
 * as its event arrives (or never, when `answer` returns undefined).
 */
async function drive(
  generator: AsyncGenerator<TurnEvent, Approvals>,
  answer: (event: Extract<TurnEvent, { type: "tool_approval" }>) => void = () => undefined,
): Promise<{ events: TurnEvent[]; approvals: Approvals }> {
  const events: TurnEvent[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { events, approvals: next.value };
    events.push(next.value);
    if (next.value.type === "tool_approval") answer(next.value);
  }
}

afterEach(() => {
  vi.useRealTimers();
  expect(waitingApprovalCount(), "a wait stayed registered").toBe(0);
});

describe("askApprovals", () => {
  it("asks only about calls of tools that require approval, each registered before the browser hears of it", async () => {
    const writer = recordingTool("write_file", true, "files");
    const reader = recordingTool("read_file", false, "files");
    const set = toolSetOf([writer.tool, reader.tool]);
    const calls = [call("c1", "write_file", '{"path":"a.txt"}'), call("c2", "read_file"), call("c3", "write_file", '{"path":"b.txt"}'), call("c4", "no_such_tool")];
    const stop = new AbortController();
    // Answered synchronously on receipt: an answer that found nothing registered yet would be refused.
    const answered: boolean[] = [];
    const { events, approvals } = await drive(
      askApprovals(set, calls, { userId: USER, conversationId: CONVERSATION, signal: stop.signal, timeoutMs: 60_000 }),
      (event) => answered.push(answerApproval({ userId: USER, conversationId: CONVERSATION, callId: event.callId, approved: event.callId === "c1" })),
    );
    expect(answered).toEqual([true, true]);
    // What the browser checks every event against.
    for (const event of events) expect(turnEventSchema.safeParse(event).error).toBeUndefined();
    const asks = events.filter((event) => event.type === "tool_approval");
    expect(asks.map((event) => [event.callId, event.toolName, event.server, event.arguments])).toEqual([
      ["c1", "write_file", "files", '{"path":"a.txt"}'],
      ["c3", "write_file", "files", '{"path":"b.txt"}'],
    ]);
    expect([...approvals.entries()]).toEqual(
      expect.arrayContaining([
        ["c1", { kind: "approved" }],
        ["c3", { kind: "denied", reason: "user" }],
      ]),
    );
    expect(approvals.size).toBe(2);
    const settled = events.filter((event) => event.type === "tool_approval_settled");
    expect(settled).toEqual(
      expect.arrayContaining([
        { type: "tool_approval_settled", callId: "c1", decision: "approved" },
        { type: "tool_approval_settled", callId: "c3", decision: "denied", reason: "user" },
      ]),
    );
  });

  it("waits for every answer, given in any order from elsewhere, and says as each is decided", async () => {
    const writer = recordingTool("write_file", true);
    const set = toolSetOf([writer.tool]);
    const stop = new AbortController();
    const generator = askApprovals(set, [call("a", "write_file"), call("b", "write_file")], { userId: USER, conversationId: CONVERSATION, signal: stop.signal, timeoutMs: 60_000 });
    const first = await generator.next();
    const second = await generator.next();
    expect([first.value, second.value].map((event) => (event as TurnEvent).type)).toEqual(["tool_approval", "tool_approval"]);
    expect(waitingApprovalCount()).toBe(2);
    // A page that missed the events (reloaded) gets the same prompts, only for the conversation's owner.
    expect(waitingPrompts(USER, CONVERSATION)).toEqual([first.value, second.value].map((event) => {
      const { type: _type, ...prompt } = event as Extract<TurnEvent, { type: "tool_approval" }>;
      return prompt;
    }));
    expect(waitingPrompts(USER, "conversation-b")).toEqual([]);
    expect(waitingPrompts("user-b", CONVERSATION)).toEqual([]);
    // The turn is now waiting; the second call is answered first.
    const third = generator.next();
    expect(answerApproval({ userId: USER, conversationId: CONVERSATION, callId: "b", approved: false })).toBe(true);
    expect((await third).value).toEqual({ type: "tool_approval_settled", callId: "b", decision: "denied", reason: "user" });
    // A second answer to the same call finds nothing waiting.
    expect(answerApproval({ userId: USER, conversationId: CONVERSATION, callId: "b", approved: true })).toBe(false);
    expect(waitingApprovalCount()).toBe(1);
    expect(waitingPrompts(USER, CONVERSATION).map((prompt) => prompt.callId)).toEqual(["a"]);
    const fourth = generator.next();
    expect(answerApproval({ userId: USER, conversationId: CONVERSATION, callId: "a", approved: true })).toBe(true);
    expect((await fourth).value).toEqual({ type: "tool_approval_settled", callId: "a", decision: "approved" });
    const end = await generator.next();
    expect(end.done).toBe(true);
    expect(end.value).toEqual(new Map([["b", { kind: "denied", reason: "user" }], ["a", { kind: "approved" }]]));
  });

  it("asks nothing and waits for nothing when no call needs approval", async () => {
    const reader = recordingTool("read_file", false);
    const stop = new AbortController();
    const { events, approvals } = await drive(askApprovals(toolSetOf([reader.tool]), [call("r", "read_file")], { userId: USER, conversationId: CONVERSATION, signal: stop.signal, timeoutMs: 60_000 }));
    expect(events).toEqual([]);
    expect(approvals.size).toBe(0);
  });

  it("does not ask about a tool the user always allows in the conversation: by its server and name", async () => {
    const files = recordingTool("write_file", true, "files");
    const other = recordingTool("write_notes", true, "notes");
    const set = toolSetOf([files.tool, other.tool]);
    const stop = new AbortController();
    const allowedTools = async () => [
      { server: "files", toolName: "write_file" },
      // The same name on another server is another tool.
      { server: "elsewhere", toolName: "write_notes" },
    ];
    const { events, approvals } = await drive(
      askApprovals(set, [call("f", "write_file"), call("n", "write_notes")], { userId: USER, conversationId: CONVERSATION, signal: stop.signal, timeoutMs: 60_000, allowedTools }),
      (event) => answerApproval({ userId: USER, conversationId: CONVERSATION, callId: event.callId, approved: false }),
    );
    expect(events.filter((event) => event.type === "tool_approval").map((event) => event.callId)).toEqual(["n"]);
    expect(approvals.get("f")).toEqual({ kind: "approved" });
    expect(approvals.get("n")).toEqual({ kind: "denied", reason: "user" });
  });

  it("ends the waits of a reader that stops half-way", async () => {
    const writer = recordingTool("write_file", true);
    const stop = new AbortController();
    const generator = askApprovals(toolSetOf([writer.tool]), [call("x", "write_file")], { userId: USER, conversationId: CONVERSATION, signal: stop.signal, timeoutMs: 60_000 });
    await generator.next();
    expect(waitingApprovalCount()).toBe(1);
    await generator.return(new Map());
    expect(waitingApprovalCount()).toBe(0);
  });
});

describe("who may answer", () => {
  it("only the waiting call's conversation and user: the same call id elsewhere is refused and the call keeps waiting", async () => {
    const stop = new AbortController();
    const decision = waitForApproval({ userId: USER, conversationId: CONVERSATION, callId: "shared_id", timeoutMs: 60_000, signal: stop.signal });
    expect(answerApproval({ userId: USER, conversationId: "conversation-b", callId: "shared_id", approved: true })).toBe(false);
    expect(answerApproval({ userId: "user-b", conversationId: CONVERSATION, callId: "shared_id", approved: true })).toBe(false);
    expect(answerApproval({ userId: USER, conversationId: CONVERSATION, callId: "other_id", approved: true })).toBe(false);
    expect(waitingApprovalCount()).toBe(1);
    expect(answerApproval({ userId: USER, conversationId: CONVERSATION, callId: "shared_id", approved: false })).toBe(true);
    await expect(decision).resolves.toEqual({ kind: "denied", reason: "user" });
  });

  it("a second wait for an id already waiting in the conversation is denied at once; the first still gets its answer", async () => {
    const stop = new AbortController();
    const first = waitForApproval({ userId: USER, conversationId: CONVERSATION, callId: "dup", timeoutMs: 60_000, signal: stop.signal });
    await expect(waitForApproval({ userId: USER, conversationId: CONVERSATION, callId: "dup", timeoutMs: 60_000, signal: stop.signal })).resolves.toEqual({
      kind: "denied",
      reason: "duplicate",
    });
    expect(answerApproval({ userId: USER, conversationId: CONVERSATION, callId: "dup", approved: true })).toBe(true);
    await expect(first).resolves.toEqual({ kind: "approved" });
  });
});

describe("the end of a wait", () => {
  it("times out denied, never approved; a late answer is refused", async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const decision = waitForApproval({ userId: USER, conversationId: CONVERSATION, callId: "slow", timeoutMs: 10_000, signal: stop.signal });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(waitingApprovalCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(decision).resolves.toEqual({ kind: "denied", reason: "timeout" });
    expect(answerApproval({ userId: USER, conversationId: CONVERSATION, callId: "slow", approved: true })).toBe(false);
  });

  it("Stop ends every wait of the turn denied, and their calls do not run", async () => {
    const writer = recordingTool("write_file", true);
    const set = toolSetOf([writer.tool]);
    const stop = new AbortController();
    const calls = [call("s1", "write_file"), call("s2", "write_file")];
    const { events, approvals } = await drive(askApprovals(set, calls, { userId: USER, conversationId: CONVERSATION, signal: stop.signal, timeoutMs: 60_000 }), (event) => {
      if (event.callId === "s2") stop.abort();
    });
    expect(events.filter((event) => event.type === "tool_approval_settled").map((event) => event.type === "tool_approval_settled" && event.decision === "denied" && event.reason)).toEqual([
      "stopped",
      "stopped",
    ]);
    const results = await Promise.all(calls.map((one) => runDecidedCall(set, one, context(stop.signal), approvals, 60_000)));
    expect(results.map((result) => [result.outcome, result.content])).toEqual([
      ["denied", "The user stopped the turn before this tool ran."],
      ["denied", "The user stopped the turn before this tool ran."],
    ]);
    expect(writer.ran).toEqual([]);
  });
});

describe("runDecidedCall", () => {
  it("runs an approved call and a call that needs no approval; stores a denied one without running it", async () => {
    const writer = recordingTool("write_file", true, "files");
    const reader = recordingTool("read_file", false);
    const set = toolSetOf([writer.tool, reader.tool]);
    const signal = new AbortController().signal;
    const approvals: Approvals = new Map([
      ["yes", { kind: "approved" }],
      ["no", { kind: "denied", reason: "user" }],
      ["late", { kind: "denied", reason: "timeout" }],
    ]);
    const run = (id: string, name: string) => runDecidedCall(set, call(id, name), context(signal), approvals, 600_000);
    const [yes, no, late, free] = await Promise.all([run("yes", "write_file"), run("no", "write_file"), run("late", "write_file"), run("free", "read_file")]);
    expect(yes).toMatchObject({ outcome: "done", content: "write_file ran {}", server: "files" });
    expect(no).toEqual({ outcome: "denied", content: "The user declined to run this tool.", durationMs: 0, server: "files" });
    expect(late).toMatchObject({ outcome: "denied", content: "The user did not answer the request to run this tool within 600 seconds, so it was not run." });
    expect(free).toMatchObject({ outcome: "done" });
    expect(writer.ran).toEqual(["yes"]);
    expect(reader.ran).toEqual(["free"]);
  });
});

describe("Stop reaches a running call", () => {
  it("the runner returns a stopped result at once, the tool gets the signal, and the call is not left without a result", async () => {
    let sawAbort = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const hanging: TurnTool = {
      definition: { type: "function", function: { name: "hang", description: "never ends by itself", parameters: { type: "object", properties: {} } } },
      run(_call, { signal }) {
        started();
        return new Promise((_, reject) => {
          signal.addEventListener("abort", () => {
            sawAbort = true;
            // Ends well after the runner has answered: the turn must not wait for it.
            setTimeout(() => reject(new Error("aborted")), 0);
          });
        });
      },
    };
    const stop = new AbortController();
    const result = runToolCall(toolSetOf([hanging]), call("h", "hang"), context(stop.signal));
    await running;
    stop.abort();
    await expect(result).resolves.toMatchObject({ outcome: "failed", content: STOPPED_WHILE_RUNNING });
    expect(sawAbort).toBe(true);
  });

  it("a call that finishes before any Stop keeps its own result", async () => {
    const reader = recordingTool("read_file", false);
    const stop = new AbortController();
    const result = await runToolCall(toolSetOf([reader.tool]), call("r", "read_file"), context(stop.signal));
    stop.abort();
    expect(result).toMatchObject({ outcome: "done", content: "read_file ran {}" });
  });
});

describe("the approval events on the wire", () => {
  const ask = { type: "tool_approval", callId: "c1", toolName: "write_file", server: "files", arguments: '{"path":"a"}', expiresAt: "2026-11-27T08:00:00.000Z" };

  it("the browser accepts a complete prompt and each way a wait ends", () => {
    for (const event of [
      ask,
      { ...ask, server: undefined },
      { type: "tool_approval_settled", callId: "c1", decision: "approved" },
      { type: "tool_approval_settled", callId: "c1", decision: "denied", reason: "timeout" },
    ]) {
      expect(turnEventSchema.safeParse(event).error).toBeUndefined();
    }
  });

  it("refuses a prompt it could not answer or date, and a denial without its reason", () => {
    for (const bad of [
      { ...ask, callId: "" },
      { ...ask, callId: undefined },
      { ...ask, arguments: { path: "a" } },
      { ...ask, expiresAt: "in ten minutes" },
      { type: "tool_approval_settled", callId: "c1", decision: "denied" },
      { type: "tool_approval_settled", callId: "c1", decision: "maybe" },
    ]) {
      expect(turnEventSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
