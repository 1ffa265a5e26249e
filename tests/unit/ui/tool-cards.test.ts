import { describe, expect, it } from "vitest";
import {
  clipText,
  formatArguments,
  pairToolResults,
  sameResults,
  serverLabel,
  toolCallStatus,
  type ToolMessage,
} from "../../../components/timeline/tool-cards";
import type { CompactionView, MessageView, TimelineItem, ToolOutcome } from "../../../lib/views";

const base = { tokenCount: 10, status: "complete" as const, pinned: false, createdAt: "2026-11-27T06:00:00.000Z" };

function reply(seq: number, calls: { id: string; name: string }[], content = ""): TimelineItem {
  const message: MessageView = {
    ...base,
    id: `a${seq}`,
    seq,
    role: "assistant",
    content,
    toolCalls: calls.map((call) => ({ ...call, arguments: "{}" })),
    model: "m",
    usage: null,
    error: null,
    reasoning: null,
  };
  return { type: "message", message };
}

function result(seq: number, toolCallId: string, extra: Partial<ToolMessage> = {}): ToolMessage {
  return {
    ...base,
    id: `t${seq}`,
    seq,
    role: "tool",
    content: `result of ${toolCallId}`,
    toolCallId,
    toolName: "current_time",
    toolOutcome: "done",
    toolDurationMs: 12,
    toolServer: null,
    toolContent: null,
    ...extra,
  };
}

const tool = (seq: number, toolCallId: string, extra: Partial<ToolMessage> = {}): TimelineItem => ({
  type: "message",
  message: result(seq, toolCallId, extra),
});
const user = (seq: number): TimelineItem => ({ type: "message", message: { ...base, id: `u${seq}`, seq, role: "user", content: "hi" } });

describe("pairToolResults", () => {
  it("pairs each result with its call by id, whatever order the results come in", () => {
    const items = [user(1), reply(2, [{ id: "c1", name: "a" }, { id: "c2", name: "b" }]), tool(3, "c2"), tool(4, "c1"), reply(5, [])];
    const { results, folded } = pairToolResults(items);
    const found = results.get("a2")!;
    expect(found.get("c1")?.id).toBe("t4");
    expect(found.get("c2")?.id).toBe("t3");
    expect([...folded]).toEqual([
      ["t3", "a2"],
      ["t4", "a2"],
    ]);
  });

  it("matches an id only among the results right after its reply: ids repeat across replies", () => {
    const items = [reply(1, [{ id: "call_0", name: "a" }]), tool(2, "call_0"), user(3), reply(4, [{ id: "call_0", name: "a" }]), tool(5, "call_0")];
    const { results } = pairToolResults(items);
    expect(results.get("a1")?.get("call_0")?.id).toBe("t2");
    expect(results.get("a4")?.get("call_0")?.id).toBe("t5");
    // A call that never got its result (a stopped turn) does not take a later reply's.
    const stopped = pairToolResults([reply(1, [{ id: "call_0", name: "a" }]), user(2), reply(3, [{ id: "call_0", name: "a" }]), tool(4, "call_0")]);
    expect(stopped.results.get("a1")?.size).toBe(0);
    expect(stopped.folded.get("t4")).toBe("a3");
  });

  it("leaves a result whose call is not there as a row of its own", () => {
    // The reply is on an earlier page (or inside a summary): the result stands alone.
    const items = [tool(3, "c9"), reply(4, [{ id: "c1", name: "a" }]), tool(5, "c7")];
    const { folded, results } = pairToolResults(items);
    expect(folded.size).toBe(0);
    expect(results.get("a4")?.size).toBe(0);
  });

  it("keeps the first of two results for one call; the second stays visible", () => {
    const { folded } = pairToolResults([reply(1, [{ id: "c1", name: "a" }]), tool(2, "c1"), tool(3, "c1")]);
    expect(folded.has("t2")).toBe(true);
    expect(folded.has("t3")).toBe(false);
  });

  it("counts a reply as open only while nothing but its results follows it", () => {
    const calls = [{ id: "c1", name: "a" }];
    expect(pairToolResults([user(1), reply(2, calls)]).open.has("a2")).toBe(true);
    expect(pairToolResults([user(1), reply(2, calls), tool(3, "c1")]).open.has("a2")).toBe(true);
    expect(pairToolResults([user(1), reply(2, calls), tool(3, "c1"), reply(4, [])]).open.has("a2")).toBe(false);
    expect(pairToolResults([reply(2, calls), user(3)]).open.size).toBe(0);
  });

  it("pairs across a clearing's notice, but not across a summary", () => {
    const block = (kind: "clearing" | "summary", fromSeq: number): TimelineItem => ({
      type: "compaction",
      compaction: { id: `${kind}${fromSeq}`, kind, fromSeq, toSeq: fromSeq + 1 } as CompactionView,
    });
    const cleared = pairToolResults([reply(1, [{ id: "c1", name: "a" }]), block("clearing", 2), tool(2, "c1")]);
    expect(cleared.folded.get("t2")).toBe("a1");
    const summarized = pairToolResults([reply(1, [{ id: "c1", name: "a" }]), block("summary", 2), tool(4, "c1")]);
    expect(summarized.folded.size).toBe(0);
  });

  it("pairs a result that arrives later in the stream", () => {
    const before = [user(1), reply(2, [{ id: "c1", name: "a" }])];
    expect(pairToolResults(before).results.get("a2")?.get("c1")).toBeUndefined();
    const after = [...before, tool(3, "c1")];
    expect(pairToolResults(after).results.get("a2")?.get("c1")?.id).toBe("t3");
  });
});

describe("toolCallStatus", () => {
  it("is the stored outcome once there is a result", () => {
    for (const outcome of ["done", "failed", "denied"] as ToolOutcome[]) {
      expect(toolCallStatus(result(2, "c1", { toolOutcome: outcome }), true, true)).toBe(outcome);
    }
  });

  it("judges results stored before outcomes by the built-ins' error text", () => {
    expect(toolCallStatus(result(2, "c1", { toolOutcome: null, content: 'Error: unknown tool "x".' }), false, false)).toBe("failed");
    expect(toolCallStatus(result(2, "c1", { toolOutcome: null, content: "Errors: none" }), false, false)).toBe("done");
  });

  it("is running without a result only while a turn runs on an open reply", () => {
    expect(toolCallStatus(undefined, true, true)).toBe("running");
    expect(toolCallStatus(undefined, true, false)).toBe("no_result");
    expect(toolCallStatus(undefined, false, true)).toBe("no_result");
  });

  it("awaits approval while the running turn asks the user about it", () => {
    expect(toolCallStatus(undefined, true, true, true)).toBe("awaiting_approval");
    expect(toolCallStatus(undefined, true, true, false)).toBe("running");
    // Answered: the result's outcome decides.
    expect(toolCallStatus(result(2, "c1", { toolOutcome: "denied" }), true, true, true)).toBe("denied");
    // A wait left over from a turn that ended does not count.
    expect(toolCallStatus(undefined, true, false, true)).toBe("no_result");
  });
});

describe("serverLabel", () => {
  it("names the server, calls built-ins built-in, and says nothing before the result", () => {
    expect(serverLabel(result(2, "c1", { toolServer: "filesystem" }))).toBe("filesystem");
    expect(serverLabel(result(2, "c1"))).toBe("built-in");
    expect(serverLabel(undefined)).toBeNull();
  });
});

describe("formatArguments", () => {
  it("pretty-prints JSON and recognises no arguments", () => {
    expect(formatArguments('{"path":"notes.md","depth":2}')).toEqual({ text: '{\n  "path": "notes.md",\n  "depth": 2\n}', json: true, empty: false });
    expect(formatArguments("{}").empty).toBe(true);
    expect(formatArguments("  ").empty).toBe(true);
  });

  it("shows text that is not JSON as sent", () => {
    expect(formatArguments('{"path": "no')).toEqual({ text: '{"path": "no', json: false, empty: false });
  });
});

describe("clipText", () => {
  it("leaves short text whole", () => {
    expect(clipText("one\ntwo", 3, 100)).toBeNull();
    expect(clipText("one\ntwo\nthree", 3, 100)).toBeNull();
    expect(clipText("a".repeat(100), 3, 100)).toBeNull();
  });

  it("keeps the first lines of a long text and counts what it leaves out", () => {
    const text = ["l1", "l2", "l3", "l4", "l5"].join("\n");
    expect(clipText(text, 3, 100)).toEqual({ head: "l1\nl2\nl3", hiddenLines: 2, hiddenChars: text.length - 8 });
  });

  it("cuts one very long line at the character bound", () => {
    const clip = clipText("x".repeat(250), 3, 100)!;
    expect(clip.head).toHaveLength(100);
    expect(clip).toMatchObject({ hiddenLines: 0, hiddenChars: 150 });
  });
});

describe("sameResults", () => {
  it("compares the result messages one by one", () => {
    const one = result(2, "c1");
    expect(sameResults(new Map([["c1", one]]), new Map([["c1", one]]))).toBe(true);
    expect(sameResults(new Map([["c1", one]]), new Map([["c1", { ...one }]]))).toBe(false);
    expect(sameResults(new Map(), new Map([["c1", one]]))).toBe(false);
    expect(sameResults(undefined, undefined)).toBe(true);
  });
});
