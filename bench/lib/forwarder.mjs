// The baseline of bench/turn-overhead.ts: the least a server can do to put a chat
// request through to a model. It receives the request (the exact body Strata sent to
// the model for the same turn), parses it, forwards it streamed to the same model
// server, reads the stream to the end and answers with the text as JSON. No database,
// no accounts, no compression. Plain JavaScript so that nothing is compiled per request.
import http from "node:http";

const target = process.env.FORWARD_TO;
const port = Number(process.env.PORT);

const server = http.createServer(async (request, response) => {
  try {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer test" },
      body: JSON.stringify(body),
    });
    const decoder = new TextDecoder();
    let buffer = "";
    let text = "";
    for await (const chunk of upstream.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
        text += JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? "";
      }
    }
    response.writeHead(upstream.ok ? 200 : 502, { "content-type": "application/json" });
    response.end(JSON.stringify({ content: text }));
  } catch (error) {
    response.writeHead(500, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: String(error) }));
  }
});
server.listen(port, "127.0.0.1", () => console.log(`forwarder listening on ${port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
