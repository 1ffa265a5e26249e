// The chunks of a streamed chat completion, read from its event stream: the server-sent
// events parsed by eventsource-parser, each event's JSON one chunk. An error the server
// sends inside the stream is thrown as the SDK throws it (an APIError without a status),
// so callers see one kind of failure whichever way the reply was read.

import { finished, type Readable } from "node:stream";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { APIError } from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { eventStreamBody } from "./model-fetch";

export async function* chatChunks(response: Response): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const body: Readable = eventStreamBody(response);
  const arrived: ChatCompletionChunk[] = [];
  let failure: unknown;
  let complete = false;
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (complete || failure !== undefined) return;
      if (event.data === "[DONE]") {
        complete = true;
        return;
      }
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        failure = new SyntaxError("Error reading response: malformed server-sent event JSON.");
        return;
      }
      const sent = data as { error?: unknown } | null;
      if (event.event === "error") failure = new APIError(undefined, (sent?.error ?? sent) as object, undefined, response.headers);
      else if (sent?.error) failure = new APIError(undefined, sent.error as object, undefined, response.headers);
      else arrived.push(data as ChatCompletionChunk);
    },
  });
  // One decoder for the whole body: a character split between two reads stays whole.
  const decoder = new TextDecoder();
  for await (const bytes of body as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    for (const chunk of arrived) yield chunk;
    arrived.length = 0;
    if (failure !== undefined) throw failure;
    if (complete) return await restOf(body);
  }
  // A last event without its blank line still counts (blank lines after a complete one are nothing).
  parser.feed(`${decoder.decode()}\n\n`);
  for (const chunk of arrived) yield chunk;
  if (failure !== undefined) throw failure;
}

/**
 * How long the rest of a response after [DONE] is waited for. A response read to its end
 * gives its connection back for the next request, where the caller's abort would close it;
 * a server that keeps the response open costs its connection, not a wait for the idle timeout.
 */
const REST_AFTER_DONE_MS = 250;

async function restOf(body: Readable): Promise<void> {
  if (body.readableEnded) return;
  await new Promise<void>((resolve) => {
    const stop = finished(body, () => {
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, REST_AFTER_DONE_MS);
  });
}
