// The chunks of a streamed chat completion, read from its event stream: the server-sent
// events parsed by eventsource-parser, each event's JSON one chunk. An error the server
// sends inside the stream is thrown as the SDK throws it (an APIError without a status),
// so callers see one kind of failure whichever way the reply was read. A server that
// ignores `stream: true` and answers with the whole completion as JSON is read as one chunk.

import { Readable, finished } from "node:stream";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { APIError } from "openai";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import { eventStreamBody } from "./model-fetch";

/** Yields the chunks; returns whether the server said the reply was complete ([DONE], or a whole JSON completion). */
export async function* chatChunks(response: Response): AsyncGenerator<ChatCompletionChunk, boolean, undefined> {
  let body: Readable = eventStreamBody(response);
  if (/^application\/(?:[\w.+-]+\+)?json\b/i.test(response.headers.get("content-type") ?? "")) {
    const text = await wholeText(body);
    const completion = completionOf(text, response.headers);
    if (completion) {
      yield asChunk(completion);
      return true;
    }
    // Not JSON after all: events sent under a JSON content type, read from the text.
    body = Readable.from([Buffer.from(text)]);
  }
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
    if (complete) {
      await restOf(body);
      return true;
    }
  }
  // A last event without its blank line still counts (blank lines after a complete one are nothing).
  parser.feed(`${decoder.decode()}\n\n`);
  for (const chunk of arrived) yield chunk;
  if (failure !== undefined) throw failure;
  return complete;
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

async function wholeText(body: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const bytes of body as AsyncIterable<Buffer>) parts.push(bytes);
  return Buffer.concat(parts).toString("utf8");
}

/** The chat completion a JSON reply holds; null when the text is not JSON. */
function completionOf(text: string, headers: Headers): ChatCompletion | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const sent = data as { error?: unknown; choices?: unknown } | null;
  if (sent?.error) throw new APIError(undefined, sent.error as object, undefined, headers);
  if (!Array.isArray(sent?.choices)) throw new SyntaxError("Error reading response: the server answered a streamed request with JSON that is not a chat completion.");
  return data as ChatCompletion;
}

/** A whole completion as the one chunk that would have carried all of it. */
function asChunk(completion: ChatCompletion): ChatCompletionChunk {
  return {
    id: completion.id,
    object: "chat.completion.chunk",
    created: completion.created,
    model: completion.model,
    choices: completion.choices.map((choice) => {
      // Thinking comes under either name servers give it (not in the SDK's types).
      const { reasoning_content, reasoning } = choice.message as { reasoning_content?: unknown; reasoning?: unknown };
      return {
        index: choice.index,
        finish_reason: choice.finish_reason,
        delta: {
          role: "assistant" as const,
          ...(choice.message.content ? { content: choice.message.content } : {}),
          ...(choice.message.refusal ? { refusal: choice.message.refusal } : {}),
          ...(reasoning_content !== undefined ? { reasoning_content } : reasoning !== undefined ? { reasoning } : {}),
          ...(choice.message.tool_calls?.length
            ? {
                tool_calls: choice.message.tool_calls.flatMap((call, index) =>
                  call.type === "function" ? [{ index, id: call.id, type: "function" as const, function: { name: call.function.name, arguments: call.function.arguments } }] : [],
                ),
              }
            : {}),
        },
      };
    }),
    ...(completion.usage ? { usage: completion.usage } : {}),
  };
}
