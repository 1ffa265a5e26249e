// A server that sends two tool calls under one id: the turn runs the first of them only,
// so the stored reply and the next request carry one call and one result for that id
// (a request with two results for one call is rejected by the APIs).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newConversation, send, setupHarness } from "../support/harness";

setupHarness();

type WireMessage = { role: string; tool_call_id?: string; tool_calls?: { id: string }[] };
const requests: { messages: WireMessage[] }[] = [];

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** First request: two current_time calls, both with the id call_dup; later ones: a text answer. */
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (part: Buffer) => (body += part.toString()));
  req.on("end", () => {
    if (!req.url?.endsWith("/chat/completions")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: [{ id: "gpt-4o-mini", object: "model" }] }));
      return;
    }
    requests.push(JSON.parse(body) as { messages: WireMessage[] });
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (requests.length === 1) {
      res.write(chunk({ role: "assistant", content: null }));
      for (const index of [0, 1]) {
        res.write(chunk({ tool_calls: [{ index, id: "call_dup", type: "function", function: { name: "current_time", arguments: "{}" } }] }));
      }
      res.write(chunk({}, "tool_calls"));
    } else {
      res.write(chunk({ role: "assistant", content: "It is now." }));
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

describe("a repeated tool-call id", () => {
  it("runs the call once: one call and one result for the id, in the store and in the next request", async () => {
    const conversation = await newConversation("gpt-4o-mini");
    const events = await send(conversation.id, "What time is it?");
    expect(events.map((event) => event.type)).toContain("done");
    const stored = events.flatMap((event) => (event.type === "message" ? [event.message] : []));
    expect(stored.filter((message) => message.role === "tool")).toHaveLength(1);

    expect(requests).toHaveLength(2);
    const next = requests[1]!.messages;
    const calls = next.flatMap((message) => message.tool_calls ?? []).filter((call) => call.id === "call_dup");
    const results = next.filter((message) => message.role === "tool" && message.tool_call_id === "call_dup");
    expect({ calls: calls.length, results: results.length }).toEqual({ calls: 1, results: 1 });
  });
});
