// A server that sends two tool calls under one id: the turn runs the first of them only,
// so the stored reply and the next request carry one call and one result for that id
// (a request with two results for one call is rejected by the APIs).
import { describe, expect, it } from "vitest";
import { newConversation, send, setupHarness } from "../support/harness";
import { toolResults, scriptedModelForFile } from "../support/scripted-tool-model";

setupHarness();
const scripted = scriptedModelForFile();

type WireCall = { id: string };

describe("a repeated tool-call id", () => {
  it("runs the call once: one call and one result for the id, in the store and in the next request", async () => {
    scripted.model.steps = [{ calls: [{ name: "current_time", args: {}, id: "call_dup" }, { name: "current_time", args: {}, id: "call_dup" }] }, { text: "It is now." }];
    const conversation = await newConversation("gpt-4o-mini");
    const events = await send(conversation.id, "What time is it?");
    expect(events.map((event) => event.type)).toContain("done");
    expect(toolResults(events)).toHaveLength(1);

    expect(scripted.model.requests).toHaveLength(2);
    const next = scripted.model.requests[1]!.messages as { role: string; tool_call_id?: string; tool_calls?: WireCall[] }[];
    const calls = next.flatMap((message) => message.tool_calls ?? []).filter((call) => call.id === "call_dup");
    const results = next.filter((message) => message.role === "tool" && message.tool_call_id === "call_dup");
    expect({ calls: calls.length, results: results.length }).toEqual({ calls: 1, results: 1 });
  });
});
