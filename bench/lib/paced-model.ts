// An OpenAI-compatible chat server for the concurrency benchmark: every streamed reply
// is the same number of words in evenly paced chunks (by default 150 words in 50 chunks
// over 2 s), so a turn's time is the model's pace plus whatever the caller adds. It runs
// in its own process, so that measuring it alone and through Strata loads the machine the
// same way. Requests that do not stream (titles, summaries) are answered at once.
//
//   node --import tsx bench/lib/paced-model.ts --port 4500 [--words 150] [--chunks 50] [--ms 2000]
import http from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    words: { type: "string", default: "150" },
    chunks: { type: "string", default: "50" },
    ms: { type: "string", default: "2000" },
  },
});
const WORDS = Number(values.words);
const CHUNKS = Number(values.chunks);
const REPLY_MS = Number(values.ms);

const VOCABULARY = "the model streams a steady reply so that the benchmark can tell its own pace from the time a caller adds".split(" ");
const words = Array.from({ length: WORDS }, (_, index) => VOCABULARY[index % VOCABULARY.length]!);
const pieces = Array.from({ length: CHUNKS }, (_, index) => {
  const from = Math.floor((index * WORDS) / CHUNKS);
  const to = Math.floor(((index + 1) * WORDS) / CHUNKS);
  return (index === 0 ? "" : " ") + words.slice(from, to).join(" ");
});
// A rough count of the request's size (4 characters a token): this server's usage is its
// own figure, as a real server's would be.
const promptTokens = (body: string) => Math.ceil(body.length / 4);

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function streamReply(res: http.ServerResponse, model: string, prompt: number): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const created = Math.floor(Date.now() / 1000);
  const send = (payload: object) => res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, ...payload })}\n\n`);
  let index = 0;
  const timer = setInterval(() => {
    if (res.destroyed) return void clearInterval(timer);
    const last = index === CHUNKS - 1;
    send({ choices: [{ index: 0, delta: index === 0 ? { role: "assistant", content: pieces[index] } : { content: pieces[index] }, finish_reason: last ? "stop" : null }] });
    index++;
    if (!last) return;
    clearInterval(timer);
    send({ choices: [], usage: { prompt_tokens: prompt, completion_tokens: Math.ceil(WORDS * 1.3), total_tokens: prompt + Math.ceil(WORDS * 1.3) } });
    res.end("data: [DONE]\n\n");
  }, REPLY_MS / CHUNKS);
  res.on("close", () => clearInterval(timer));
}

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url?.startsWith("/v1/models")) {
    res.writeHead(200, { "content-type": "application/json" });
    return void res.end(JSON.stringify({ object: "list", data: [{ id: "paced", object: "model", created: 0, owned_by: "bench" }] }));
  }
  if (req.method !== "POST" || !req.url?.startsWith("/v1/chat/completions")) {
    res.writeHead(404);
    return void res.end();
  }
  void readBody(req).then((text) => {
    const body = JSON.parse(text) as { model?: string; stream?: boolean };
    const model = body.model ?? "paced";
    if (body.stream) return streamReply(res, model, promptTokens(text));
    const content = "A short summary of the conversation so far.";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "chatcmpl-summary",
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: promptTokens(text), completion_tokens: 10, total_tokens: promptTokens(text) + 10 },
      }),
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(values.port), "127.0.0.1", () => {
  const address = server.address();
  // The parent reads the port from this line.
  console.log(`listening ${typeof address === "object" && address ? address.port : values.port}`);
});
