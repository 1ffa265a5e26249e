// Each tool result is stored with how its call ended and how long it ran: a call of a
// tool the turn offers is "done", a call of a tool it does not offer is "failed" with an
// error the model reads; the view the browser gets carries the same.
import { describe, expect, it } from "vitest";
import { newConversation, send, setupHarness } from "../support/harness";
import { toolResults, scriptedModelForFile } from "../support/scripted-tool-model";

const h = setupHarness();
const scripted = scriptedModelForFile();

describe("tool results", () => {
  it("are stored with their outcome and duration; a tool the turn did not offer fails with a readable error", async () => {
    scripted.model.steps = [{ calls: [{ name: "current_time", args: {}, id: "call_time" }, { name: "delete_everything", args: {}, id: "call_nope" }] }];
    const conversation = await newConversation("gpt-4o-mini");
    const events = await send(conversation.id, "What time is it?");
    expect(events.map((event) => event.type)).toContain("done");
    const results = toolResults(events);
    expect(results.map((result) => [result.toolCallId, result.toolOutcome, result.toolServer])).toEqual([
      ["call_time", "done", null],
      ["call_nope", "failed", null],
    ]);
    for (const result of results) expect(result.toolDurationMs).toBeGreaterThanOrEqual(0);
    expect(results[1]!.content).toMatch(/unknown tool "delete_everything"/);
    expect(scripted.model.offered(0)).toContain("current_time");

    const rows = await h.db.message.findMany({ where: { conversationId: conversation.id, role: "tool" }, orderBy: { seq: "asc" } });
    expect(rows.map((row) => row.toolOutcome)).toEqual(["done", "failed"]);
    expect(rows.every((row) => typeof row.toolDurationMs === "number")).toBe(true);
    // The model reads the error as the call's result.
    const next = scripted.model.requests[1]!.messages.filter((message) => message.role === "tool");
    expect(next.map((message) => message.tool_call_id)).toEqual(["call_time", "call_nope"]);
  });
});
