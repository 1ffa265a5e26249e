// A scripted OpenAI-compatible model for the tool-server suites: each chat request takes
// the next step of the script (tool calls or a text answer; "Done." when the script is
// empty), after an optional hook that runs while the request is open (to change
// something mid-turn). Every request is recorded.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { TurnEvent } from "../../lib/chat/events";
import type { MessageView } from "../../lib/views";

export type WireRequest = { messages: { role: string; content?: string | null; tool_call_id?: string }[]; tools?: { function: { name: string } }[] };
export type ScriptedCall = { name: string; args: unknown; id?: string };
export type Step = { calls: ScriptedCall[] } | { text: string };

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

export type ScriptedModel = {
  url: string;
  requests: WireRequest[];
  steps: Step[];
  beforeReply: (() => Promise<void>) | undefined;
  /** The tool names the `index`th request offered. */
  offered(index?: number): string[];
  reset(): void;
  close(): Promise<void>;
};

export async function startScriptedModel(): Promise<ScriptedModel> {
  const model: Omit<ScriptedModel, "url" | "close"> = {
    requests: [],
    steps: [],
    beforeReply: undefined,
    offered: (index = 0) => (model.requests[index]?.tools ?? []).map((tool) => tool.function.name),
    reset() {
      model.requests.length = 0;
      model.steps = [];
      model.beforeReply = undefined;
    },
  };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (part: Buffer) => (body += part.toString()));
    req.on("end", () => {
      if (!req.url?.endsWith("/chat/completions")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: [{ id: "gpt-4o-mini", object: "model" }] }));
        return;
      }
      model.requests.push(JSON.parse(body) as WireRequest);
      const step = model.steps.shift() ?? { text: "Done." };
      const hook = model.beforeReply;
      model.beforeReply = undefined;
      void (hook ?? (async () => {}))().then(() => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(chunk({ role: "assistant", content: null }));
        if ("text" in step) {
          res.write(chunk({ content: step.text }));
          res.write(chunk({}, "stop"));
        } else {
          step.calls.forEach((call, index) => {
            const args = typeof call.args === "string" ? call.args : JSON.stringify(call.args);
            res.write(chunk({ tool_calls: [{ index, id: call.id ?? `call_${index}`, type: "function", function: { name: call.name, arguments: args } }] }));
          });
          res.write(chunk({}, "tool_calls"));
        }
        res.end("data: [DONE]\n\n");
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return Object.assign(model, { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

export type ToolMessage = Extract<MessageView, { role: "tool" }>;

export const toolResults = (events: TurnEvent[]): ToolMessage[] =>
  events.flatMap((event) => (event.type === "message" && event.message.role === "tool" ? [event.message] : []));

/**
 * A scripted model for one test file, set as the app's endpoint before its tests and
 * closed after them (the previous endpoint restored). Call at the top level of the file.
 */
export function scriptedModelForFile(): { readonly model: ScriptedModel } {
  const holder = {} as { model: ScriptedModel };
  let previousUrl: string | undefined;
  beforeAll(async () => {
    holder.model = await startScriptedModel();
    previousUrl = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = holder.model.url;
  });
  afterAll(async () => {
    process.env.OPENAI_BASE_URL = previousUrl;
    await holder.model.close();
  });
  return holder;
}
