// How Strata reads a streamed reply off the wire (lib/llm/model-fetch.ts, chat-stream.ts),
// against a bare HTTP server that writes the exact bytes each case needs: events split
// anywhere (inside a character too), CRLF lines and comments, errors sent inside the
// stream, a server that keeps the connection open after [DONE], connection reuse, a
// retried 503 and an event stream under another content type, read as it arrives.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createModelEndpoint, streamChat, type ChatStreamEvent } from "@/lib/llm/client";
import { modelError } from "../support/model-error";

type Handler = (request: http.IncomingMessage, body: string, response: http.ServerResponse) => void;

let handler: Handler;
let server: http.Server;
let baseURL: string;
const seen: { authorization?: string | undefined; body: unknown; port: number | undefined }[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (text: string) => (body += text));
    request.on("end", () => {
      seen.push({ authorization: request.headers.authorization, body: JSON.parse(body), port: request.socket.remotePort });
      handler(request, body, response);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(() => {
  seen.length = 0;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
const event = (data: string) => `data: ${data}\n\n`;
const reply = (words: readonly string[]) => [...words.map((word) => event(chunk({ content: word }))), event(chunk({}, "stop")), event("[DONE]")].join("");

async function collect(options: { maxRetries?: number; timeoutMs?: number } = {}): Promise<ChatStreamEvent[]> {
  const endpoint = createModelEndpoint({ baseURL, apiKey: "sk-wire", maxRetries: options.maxRetries ?? 0 });
  const events: ChatStreamEvent[] = [];
  for await (const each of streamChat({ endpoint, model: "m", messages: [{ role: "user", content: "hi" }], timeoutMs: options.timeoutMs ?? 5000 })) events.push(each);
  return events;
}
const textOf = (events: ChatStreamEvent[]) => events.map((each) => (each.type === "text" ? each.delta : "")).join("");

/** Writes `bytes` in pieces of `size` bytes, each in its own write after the last was flushed. */
async function writeInPieces(response: http.ServerResponse, bytes: Buffer, size: number): Promise<void> {
  for (let start = 0; start < bytes.length; start += size) {
    await new Promise<void>((resolve) => response.write(bytes.subarray(start, start + size), () => resolve()));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("a streamed reply off the wire", () => {
  it("keeps every character when events and multi-byte characters are split across writes, with CRLF lines and comments", async () => {
    const words = ["Grüße ", "— ", "日本語 ", "🙂 ", "done"];
    const wire = `: keep-alive\r\n\r\n${reply(words).replaceAll("\n", "\r\n")}`;
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      void writeInPieces(response, Buffer.from(wire), 3).then(() => response.end());
    };
    const events = await collect();
    expect(textOf(events)).toBe(words.join(""));
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    // The key went to the server as the SDK sends it, with the request as JSON.
    expect(seen[0]).toMatchObject({ authorization: "Bearer sk-wire", body: { model: "m", stream: true } });
  });

  it("reads an event stream sent under another content type", async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(reply(["plain ", "text"]));
    };
    expect(textOf(await collect())).toBe("plain text");
  });

  it("streams an event stream sent under another content type as it arrives, each pause timed on its own", async () => {
    // Five events 300 ms apart under text/html (a hand-written server's default): 1.2 s in
    // all, against an idle timeout of 800 ms that no single pause reaches.
    const words = ["one ", "two ", "three ", "four ", "five"];
    let written = 0;
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      const events = [...words.map((word) => event(chunk({ content: word }))), event(chunk({}, "stop")) + event("[DONE]")];
      const next = () => {
        response.write(events[written]!);
        written += 1;
        if (written < events.length) setTimeout(next, 300);
        else response.end();
      };
      next();
    };
    const endpoint = createModelEndpoint({ baseURL, apiKey: "sk-wire", maxRetries: 0 });
    const writtenAtEachText: number[] = [];
    let text = "";
    for await (const each of streamChat({ endpoint, model: "m", messages: [{ role: "user", content: "hi" }], timeoutMs: 800 })) {
      if (each.type !== "text") continue;
      writtenAtEachText.push(written);
      text += each.delta;
    }
    expect(text).toBe("one two three four five");
    // The first word reached the caller while the server had written only it.
    expect(writtenAtEachText[0]).toBe(1);
  });

  it("reads the whole completion of a server that ignores stream: true and answers with JSON", async () => {
    const completion = (message: Record<string, unknown>, finish: string) =>
      JSON.stringify({
        id: "c2",
        object: "chat.completion",
        created: 0,
        model: "m",
        choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
        usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, prompt_tokens_details: { cached_tokens: 8 } },
      });
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      response.end(completion({ content: "all at once", reasoning_content: "thought first" }, "stop"));
    };
    const events = await collect();
    expect(textOf(events)).toBe("all at once");
    expect(events).toContainEqual({ type: "reasoning", delta: "thought first" });
    expect(events).toContainEqual({ type: "usage", promptTokens: 12, cachedTokens: 8, completionTokens: 3 });
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });

    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(completion({ content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } }] }, "tool_calls"));
    };
    expect(await collect()).toContainEqual({ type: "tool_calls", calls: [{ id: "call_1", name: "lookup", arguments: '{"q":"x"}' }] });

    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "context too long for this deployment", type: "invalid_request_error" } }));
    };
    expect((await modelError(collect())).message).toContain("context too long for this deployment");

    // Events under a JSON content type are still events.
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(reply(["labelled ", "json"]));
    };
    expect(textOf(await collect())).toBe("labelled json");
  });

  it("takes [DONE] as the end of a reply whose chunks never name a finish reason, and a stream cut off before either as broken", async () => {
    const noReason = (words: readonly string[], finish: null | "") => words.map((word) => event(chunk({ content: word }, finish))).join("");
    for (const finish of [null, ""] as const) {
      handler = (_request, _body, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(noReason(["no ", "reason"], finish) + event("[DONE]"));
      };
      const events = await collect();
      expect(textOf(events)).toBe("no reason");
      expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    }

    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(event(chunk({ tool_calls: [{ index: 0, id: "call_9", type: "function", function: { name: "lookup", arguments: "{}" } }] })) + event("[DONE]"));
    };
    const called = await collect();
    expect(called).toContainEqual({ type: "tool_calls", calls: [{ id: "call_9", name: "lookup", arguments: "{}" }] });
    expect(called.at(-1)).toEqual({ type: "done", finishReason: "tool_calls" });

    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(noReason(["cut ", "off"], null));
    };
    const error = await modelError(collect());
    expect(error.kind).toBe("malformed");
  });

  it("counts a last event that the server closed without its blank line", async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`${event(chunk({ content: "cut" }))}data: ${chunk({}, "length")}`);
    };
    const events = await collect();
    expect(textOf(events)).toBe("cut");
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "length" });
  });

  it("says what the server reported when it sends an error inside the stream, as data or as an error event", async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(event(chunk({ content: "partial" })) + event(JSON.stringify({ error: { message: "the model is overloaded" } })));
    };
    const inData = await modelError(collect());
    expect(inData.kind).toBe("http");
    expect(inData.message).toContain("the model is overloaded");

    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`event: error\n${event(JSON.stringify({ message: "quota exhausted" }))}`);
    };
    expect((await modelError(collect())).message).toContain("quota exhausted");
  });

  it("ends the reply at [DONE] even when the server keeps the response open", async () => {
    const open: http.ServerResponse[] = [];
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(reply(["still ", "open"]));
      open.push(response);
    };
    // Reading on to the end would meet the idle timeout instead of [DONE].
    const events = await collect({ timeoutMs: 3000 });
    expect(textOf(events)).toBe("still open");
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    for (const response of open) response.end();
  });

  it("keeps its connections for the next turns, also when the response ends a moment after [DONE]", async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(reply(["again"]));
      // The end of the response in its own packet, as a server across a network may send it.
      setTimeout(() => response.end(), 20);
    };
    for (let turn = 0; turn < 6; turn++) expect(textOf(await collect())).toBe("again");
    expect(seen).toHaveLength(6);
    // The pool may open a second connection while the first is being given back; a reply
    // whose connection were closed after it would need one per turn.
    expect(new Set(seen.map((request) => request.port)).size).toBeLessThanOrEqual(2);
  });

  it("a refusal comes back as the server's status and message; a 503 is retried when retries are on", async () => {
    handler = (_request, _body, response) => {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "model 'm' does not exist", type: "invalid_request_error" } }));
    };
    const refused = await modelError(collect());
    expect(refused.status).toBe(400);
    expect(refused.message).toBe("The model server returned HTTP 400: model 'm' does not exist");

    let calls = 0;
    handler = (_request, _body, response) => {
      if (calls++ === 0) {
        response.writeHead(503, { "content-type": "text/plain", "retry-after-ms": "10" });
        response.end("busy");
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(reply(["second ", "try"]));
    };
    expect(textOf(await collect({ maxRetries: 1 }))).toBe("second try");
    expect(calls).toBe(2);
  });
});
