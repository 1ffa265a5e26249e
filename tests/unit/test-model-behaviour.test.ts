// The test model's own triggers (tests/support/test-model/behaviour.ts): what tests and
// benchmarks write to steer a reply. The demo model a user runs knows none of them.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "@/lib/compression/types";
import { loremWords, recallFact, triggeredReply } from "../support/test-model/behaviour";

const sys = (content: string): ChatMessage => ({ role: "system", content });
const user = (content: string): ChatMessage => ({ role: "user", content });
const offered = (...names: string[]) => names.map((name) => ({ type: "function", function: { name } }));

describe("REPLY_WORDS", () => {
  it("produces exactly n words, deterministically", () => {
    expect(loremWords(0, "x")).toBe("");
    expect(loremWords(7, "seed").split(" ")).toHaveLength(7);
    expect(loremWords(50, "seed")).toBe(loremWords(50, "seed"));
    expect(loremWords(50, "seed")).not.toBe(loremWords(50, "other seed"));
    const reply = triggeredReply([user("Fill please REPLY_WORDS=25")]);
    expect(reply?.type === "text" && reply.content.split(" ")).toHaveLength(25);
  });

  it("leaves a message without a trigger to the demo model", () => {
    expect(triggeredReply([user("hello")])).toBeUndefined();
    expect(triggeredReply([user("COMPRESS_CONTEXT")])).toBeUndefined(); // not offered
  });
});

describe("RECALL", () => {
  it("recalls the last occurrence, without trailing punctuation, tool-call arguments included", () => {
    expect(recallFact([sys("FACT k=1"), user("FACT k=2")], "k")).toBe("2");
    expect(recallFact([user("FACT k=blue. then FACT j=x; FACT k=red;")], "k")).toBe("red");
    expect(recallFact([user("nothing")], "k")).toBeUndefined();
    const call: ChatMessage = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "compress_context", arguments: JSON.stringify({ summary: "S\nFACT a=1" }) } }],
    };
    expect(recallFact([call], "a")).toBe("1");
  });

  it("answers every key in order, UNKNOWN for one it cannot see", () => {
    const messages = [sys("Summary.\nFACT a=1\nFACT c=3; FACT d=4"), user("RECALL a? RECALL c? RECALL d? RECALL e?")];
    expect(triggeredReply(messages)).toEqual({ type: "text", content: "a=1\nc=3\nd=4\ne=UNKNOWN" });
  });

  const call = (id: string, query: string) => ({
    role: "assistant" as const,
    content: null,
    tool_calls: [{ id, type: "function" as const, function: { name: "search_history", arguments: JSON.stringify({ query }) } }],
  });
  const result = (id: string, content: string) => ({ role: "tool" as const, tool_call_id: id, content });

  it("looks up a key it cannot see, one search per key, then answers from the results", () => {
    const search = offered("search_history");
    const asked = [sys("[Summary of messages 1–20 (level 1)]\nFACT a=1"), user("RECALL a? RECALL b? RECALL c?")];
    expect(triggeredReply(asked, search)).toEqual({ type: "tool_call", name: "search_history", arguments: '{"query":"b"}' });
    const afterB = [...asked, call("t1", "b"), result("t1", 'Matches for "b":\n#4 (user): we chose FACT b=22 then')];
    expect(triggeredReply(afterB, search)).toEqual({ type: "tool_call", name: "search_history", arguments: '{"query":"c"}' });
    const afterC = [...afterB, call("t2", "c"), result("t2", 'No message or summary of this conversation matches "c".')];
    expect(triggeredReply(afterC, search)).toEqual({ type: "text", content: "a=1\nb=22\nc=UNKNOWN" });
  });

  it("leaves other tools' results to the demo model", () => {
    const time = { role: "assistant" as const, content: null, tool_calls: [{ id: "x", type: "function" as const, function: { name: "current_time", arguments: "{}" } }] };
    expect(triggeredReply([user("what time is it"), time, result("x", "12:00")], offered("search_history"))).toBeUndefined();
  });
});

describe("COMPRESS_CONTEXT", () => {
  it("calls compress_context with every FACT line when it is offered", () => {
    const messages = [user("FACT city=Oslo"), { role: "assistant" as const, content: "ok" }, user("FACT pet=cat\nCOMPRESS_CONTEXT now")];
    expect(triggeredReply(messages, offered("compress_context"))).toEqual({
      type: "tool_call",
      name: "compress_context",
      arguments: JSON.stringify({ summary: "Summary of the conversation so far.\nFACT city=Oslo\nFACT pet=cat" }),
    });
  });
});
