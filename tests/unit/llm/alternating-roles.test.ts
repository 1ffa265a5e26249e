// A request rewritten for chat templates that take one system message and then user and
// assistant messages alternating: the shape holds for any mix of roles, no word is lost
// or reordered, and a request already in that shape is left alone.
import fc from "fast-check";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { alternatingRoles, CONTINUED } from "../../../lib/llm/alternating-roles";

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const text = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));
const message: fc.Arbitrary<ChatCompletionMessageParam> = fc.oneof(
  text.map((content) => ({ role: "system" as const, content })),
  text.map((content) => ({ role: "user" as const, content })),
  text.map((content) => ({ role: "assistant" as const, content })),
);
const conversation = fc.array(message, { minLength: 1, maxLength: 30 });

/** What a Gemma or Mistral template accepts, written out here rather than taken from the module. */
function alternates(messages: ChatCompletionMessageParam[]): boolean {
  const rest = messages[0]?.role === "system" ? messages.slice(1) : messages;
  return rest.every((m, i) => m.role === (i % 2 === 0 ? "user" : "assistant"));
}

const texts = (messages: ChatCompletionMessageParam[]) => messages.map((m) => (typeof m.content === "string" ? m.content : ""));

describe("alternatingRoles", () => {
  it("makes any mix of system, user and assistant messages alternate after one system message", () => {
    fc.assert(fc.property(conversation, (messages) => alternates(alternatingRoles(messages))), { numRuns: 500 });
  });

  it("keeps every message's text, in order", () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const out = texts(alternatingRoles(messages)).join("\n\n");
        let from = 0;
        for (const original of texts(messages)) {
          const at = out.indexOf(original, from);
          if (at < 0) return false;
          from = at + original.length;
        }
        return true;
      }),
      { numRuns: 500 },
    );
  });

  it("leaves a request that already alternates as it is, and is stable when applied twice", () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const once = alternatingRoles(messages);
        expect(alternatingRoles(once)).toEqual(once);
        if (alternates(messages)) expect(once).toEqual(messages);
      }),
      { numRuns: 300 },
    );
  });

  it("puts a compressed request's parts where a reader expects them", () => {
    const out = alternatingRoles([
      { role: "system", content: "You are helpful." },
      { role: "system", content: "[Summary of messages 1–18] The launch moved to March." },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "And the budget?" },
      { role: "assistant", content: "4,200 euros." },
      { role: "system", content: "Earlier messages that match: [#3 user]: the venue is the Old Mill." },
      { role: "user", content: "Where is it?" },
    ]);
    expect(out).toEqual([
      { role: "system", content: "You are helpful.\n\n[Summary of messages 1–18] The launch moved to March." },
      { role: "user", content: CONTINUED },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "And the budget?" },
      { role: "assistant", content: "4,200 euros." },
      { role: "user", content: "Earlier messages that match: [#3 user]: the venue is the Old Mill.\n\nWhere is it?" },
    ]);
  });

  it("keeps images, and leaves tool calls and results as they are", () => {
    const image = { type: "image_url" as const, image_url: { url: "data:image/png;base64,AAAA" } };
    const call = { role: "assistant" as const, content: null, tool_calls: [{ id: "c1", type: "function" as const, function: { name: "read", arguments: "{}" } }] };
    const result = { role: "tool" as const, tool_call_id: "c1", content: "file text" };
    const out = alternatingRoles([
      { role: "system", content: "S" },
      { role: "user", content: "Look at this" },
      { role: "user", content: [{ type: "text", text: "and this" }, image] },
      call,
      result,
    ]);
    expect(out).toEqual([
      { role: "system", content: "S" },
      { role: "user", content: [{ type: "text", text: "Look at this" }, { type: "text", text: "\n\n" }, { type: "text", text: "and this" }, image] },
      call,
      result,
    ]);
  });
});
