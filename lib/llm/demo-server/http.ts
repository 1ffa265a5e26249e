// Small node:http helpers of the demo server, shared with anything that speaks its
// dialect over HTTP (errors shaped like OpenAI's, JSON bodies, abortable waits).
import http from "node:http";
import { setMaxListeners } from "node:events";
import type { AddressInfo, Socket } from "node:net";

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export function sendJson(res: http.ServerResponse, status: number, data: unknown): void {
  const payload = JSON.stringify(data);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

/** An OpenAI-style error body. */
export function sendError(
  res: http.ServerResponse,
  status: number,
  message: string,
  type = "invalid_request_error",
  code: string | number | null = null,
): void {
  sendJson(res, status, { error: { message, type, param: null, code } });
}

export function writeEvent(res: http.ServerResponse, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("Request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Content pieces of `wordsPerChunk` words each, whitespace kept so they concatenate back exactly. */
export function splitWords(text: string, wordsPerChunk: number): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  const trailing = text.slice(words.join("").length);
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) pieces.push(words.slice(i, i + wordsPerChunk).join(""));
  if (trailing) {
    if (pieces.length > 0) pieces[pieces.length - 1] += trailing;
    else pieces.push(trailing);
  }
  return pieces;
}

/** Aborts when the client goes away before its reply ends, or when `closing` aborts. */
export function requestSignal(res: http.ServerResponse, closing: AbortSignal): AbortSignal {
  const aborted = new AbortController();
  const onClosing = () => aborted.abort();
  closing.addEventListener("abort", onClosing, { once: true });
  res.on("close", () => {
    closing.removeEventListener("abort", onClosing);
    if (!res.writableEnded) aborted.abort();
  });
  return aborted.signal;
}

export type HttpService = {
  /** Base URL for the openai client, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  port: number;
  host: string;
  /** Aborts on close(), so pending waits and hung requests end at once. */
  closing: AbortSignal;
  /** Ends pending waits, destroys every open socket (hung requests included) and resolves. */
  close(): Promise<void>;
};

/** How long an idle kept-alive connection stays open; sent to clients as `Keep-Alive: timeout=…`. */
export const IDLE_KEEP_ALIVE_MS = 65_000;

export type ServeOptions = { port?: number | undefined; host?: string | undefined; unref?: boolean | undefined };

/** Listens with `handle`; a handler that throws answers 500 (or drops the connection mid-reply). */
export async function serve(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, closing: AbortSignal) => Promise<void>,
  options: ServeOptions,
): Promise<HttpService> {
  const host = options.host ?? "127.0.0.1";
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  // Every request in flight listens for the server closing and removes its listener
  // when it ends, so many at once under load is expected, not a leak.
  setMaxListeners(0, closing.signal);
  const server = http.createServer((req, res) => {
    handle(req, res, closing.signal).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `Server error: ${String(error)}`, "server_error");
      else res.destroy();
    });
  });
  // Node closes an idle kept-alive socket after 5 s. A client that reuses it at that
  // moment (Playwright's request context does not read the Keep-Alive hint) gets
  // "socket hang up" on a request the server never saw. A minute outlasts the pauses
  // between one client's calls; clients that read the hint close first.
  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  if (options.unref) server.unref();
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    host,
    closing: closing.signal,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}
