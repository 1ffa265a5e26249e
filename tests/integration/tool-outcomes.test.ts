// Each tool result is stored with how its call ended and how long it ran: a call of a
// tool the turn offers is "done", a call of a tool it does not offer is "failed" with an
// error the model reads; the view the browser gets carries the same.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newConversation, send, setupHarness } from "../support/harness";

const h = setupHarness();

type WireMessage = { role: string; content?: string | null; tool_call_id?: string };
const requests: { messages: WireMessage[]; tools?: { function: { name: string } }[] }[] = [];

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** First request: a call of current_time and one of a tool nobody offers; later ones: a text answer. */
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (part: Buffer) => (body += part.toString()));
  req.on("end", () => {
    if (!req.url?.endsWith("/chat/completions")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: [{ id: "gpt-4o-mini", object: "model" }] }));
      return;
    }
    requests.push(JSON.parse(body) as (typeof requests)[number]);
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (requests.length === 1) {
      res.write(chunk({ role: "assistant", content: null }));
      res.write(chunk({ tool_calls: [{ index: 0, id: "call_time", type: "function", function: { name: "current_time", arguments: "{}" } }] }));
      res.write(chunk({ tool_calls: [{ index: 1, id: "call_nope", type: "function", function: { name: "delete_everything", arguments: "{}" } }] }));
      res.write(chunk({}, "tool_calls"));
    } else {
      res.write(chunk({ role: "assistant", content: "Done." }));
      res.write(chunk({}, "stop"));
    }
    res.end("data: [DONE]\n\n");
  });
});

let previousUrl: string | undefined;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  previousUrl = process.env.OPENAI_BASE_URL;
  process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  process.env.OPENAI_BASE_URL = previousUrl;
  await new Promise((resolve) => server.close(resolve));
});

describe("tool results", () => {
  it("are stored with their outcome and duration; a tool the turn did not offer fails with a readable error", async () => {
    const conversation = await newConversation("gpt-4o-mini");
    const events = await send(conversation.id, "What time is it?");
    expect(events.map((event) => event.type)).toContain("done");
    const results = events.flatMap((event) => (event.type === "message" && event.message.role === "tool" ? [event.message] : []));
    expect(results.map((result) => [result.toolCallId, result.toolOutcome, result.toolServer])).toEqual([
      ["call_time", "done", null],
      ["call_nope", "failed", null],
    ]);
    for (const result of results) expect(result.toolDurationMs).toBeGreaterThanOrEqual(0);
    expect(results[1]!.content).toMatch(/unknown tool "delete_everything"/);
    expect(requests[0]!.tools?.map((tool) => tool.function.name)).toContain("current_time");

    const rows = await h.db.message.findMany({ where: { conversationId: conversation.id, role: "tool" }, orderBy: { seq: "asc" } });
    expect(rows.map((row) => row.toolOutcome)).toEqual(["done", "failed"]);
    expect(rows.every((row) => typeof row.toolDurationMs === "number")).toBe(true);
    // The model reads the error as the call's result.
    const next = requests[1]!.messages.filter((message) => message.role === "tool");
    expect(next.map((message) => message.tool_call_id)).toEqual(["call_time", "call_nope"]);
  });
});
