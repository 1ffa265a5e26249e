// The HTTP client of every model call: a `fetch` for the openai client, on undici's
// request API instead of the runtime's fetch.
//
// Why: at a few hundred conversations streaming at once, an instance spent most of its
// CPU per turn in the transport, not in Strata: the runtime's fetch (with the framework's
// instrumentation of it) feeds each chunk of a reply through web streams and the SDK's
// chain of async iterators before the turn sees it. Here a streamed reply's body stays a
// Node stream, read by lib/llm/chat-stream.ts; the SDK still builds the request, sets the
// key, retries and turns refusals into its errors.
//
// Everything the SDK reads comes as a standard Response: a reply that is not a stream
// (errors, summaries, the model list) is read whole first. The body of a 2xx reply to a
// request that asked for a stream (STREAMED_REPLY) is given to chatChunks() through
// eventStreamBody(), whatever content type the server labelled it with; its Response
// carries no body.

import { Readable } from "node:stream";
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from "undici";
import { config } from "../config";

let dispatcher: Dispatcher | undefined;

/** Connections to model servers, kept alive between calls; through the proxy when Node's fetch would use it. */
function connections(): Dispatcher {
  if (dispatcher) return dispatcher;
  // undici's own timeouts stay off: the caller's idle timeout and the SDK's request
  // timeout bound every call, and a model may think for minutes before its first byte.
  const options = { headersTimeout: 0, bodyTimeout: 0 };
  dispatcher = config().NODE_USE_ENV_PROXY === "1" ? new EnvHttpProxyAgent(options) : new Agent(options);
  return dispatcher;
}

const eventStreams = new WeakMap<Response, Readable>();

const STREAMED = Symbol("strata.streamedReply");

/**
 * The SDK's `fetchOptions` of a request whose reply is read as a stream. It is the request
 * that says so, not the reply's content type: a hand-written server streams its events
 * under text/plain or text/html as often as under text/event-stream, and reading such a
 * reply whole would show nothing until it ended and count all of it against the idle timeout.
 */
export const STREAMED_REPLY: object = { [STREAMED]: true };

const asksForStream = (init: RequestInit | undefined) => (init as Record<symbol, unknown> | undefined)?.[STREAMED] === true;

/** Statuses whose Response may not have a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export const modelFetch: typeof fetch = async (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const body = init?.body;
  // The SDK sends JSON text; anything else (a file upload) goes the runtime's way.
  if (body != null && typeof body !== "string") return fetch(input, init);
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const response = await request(url, {
    method: (init?.method ?? "GET") as Dispatcher.HttpMethod,
    headers,
    body: body ?? null,
    ...(init?.signal ? { signal: init.signal } : {}),
    dispatcher: connections(),
  });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const each of value) responseHeaders.append(name, each);
    else if (value !== undefined) responseHeaders.set(name, value);
  }
  const status = response.statusCode;
  if (status >= 200 && status < 300 && asksForStream(init)) {
    const streamed = new Response(null, { status, headers: responseHeaders });
    eventStreams.set(streamed, response.body);
    return streamed;
  }
  const whole = NULL_BODY.has(status) ? null : Buffer.from(await response.body.arrayBuffer());
  return new Response(whole, { status, headers: responseHeaders });
};

/** The body of a streamed reply as a Node stream (a Response made elsewhere is streamed from its body). */
export function eventStreamBody(response: Response): Readable {
  const body = eventStreams.get(response);
  if (body) return body;
  if (!response.body) throw new TypeError("the model server's reply has no body");
  return Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>);
}
