// With NODE_USE_ENV_PROXY=1 (Node's own switch for its fetch), model calls go through
// HTTP_PROXY like any fetch would: a bare forward proxy here sees the tunnel to the model
// server opened through it, for a streamed reply and for a summary alike.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createModelEndpoint, streamChat } from "@/lib/llm/client";
import { createSummarizer } from "@/lib/llm/summarizer";
import { startOutsideModel, type OutsideModel } from "../support/outside-model/server";

let model: OutsideModel;
let proxy: http.Server;
const tunnels: string[] = [];
const open = new Set<net.Socket>();
const saved = { NODE_USE_ENV_PROXY: process.env.NODE_USE_ENV_PROXY, HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };

beforeAll(async () => {
  model = await startOutsideModel();
  proxy = http.createServer((_request, response) => response.writeHead(405).end());
  proxy.on("connect", (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(request.url ?? "");
    open.add(client);
    const [host, port] = (request.url ?? "").split(":");
    const upstream = net.connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  process.env.NODE_USE_ENV_PROXY = "1";
  process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  delete process.env.NO_PROXY;
});
afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  // A tunnel left the server's hands when it was opened: close() would wait for the kept-alive ones.
  for (const socket of open) socket.destroy();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await model.close();
});

it("sends streamed replies and summaries through the proxy", async () => {
  const endpoint = createModelEndpoint({ baseURL: model.url, apiKey: "sk-proxy", maxRetries: 0 });
  let text = "";
  for await (const event of streamChat({ endpoint, model: "gpt-4o-mini", messages: [{ role: "user", content: "Say something." }] })) {
    if (event.type === "text") text += event.delta;
  }
  expect(text.length).toBeGreaterThan(0);
  const summary = await createSummarizer({ endpoint }).complete({
    model: "gpt-4o-mini",
    messages: [
      { role: "system", content: "Summarize the conversation." },
      { role: "user", content: "FACT color=teal" },
    ],
    maxTokens: 200,
    temperature: 0.3,
    timeoutMs: 5000,
  });
  expect(summary.text.length).toBeGreaterThan(0);
  const target = new URL(model.url).host;
  expect(tunnels.length).toBeGreaterThan(0);
  expect(tunnels.every((tunnel) => tunnel === target)).toBe(true);
  expect(model.requests().map((request) => request.kind)).toEqual(["chat", "summary"]);
});
