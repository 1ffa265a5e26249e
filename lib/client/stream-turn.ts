// Consumes POST /api/conversations/:id/messages as NDJSON: one TurnEvent per line.
// Validation errors arrive as an HTTP 4xx JSON body before any streaming and are
// thrown as TurnRequestError so the composer can show them.
import type { TurnEvent } from "@/lib/chat/events";

export type TurnRequest =
  | { content: string }
  | { retry: true }
  | { editSeq: number; content: string };

export class TurnRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "TurnRequestError";
  }
}

async function readError(response: Response): Promise<TurnRequestError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; fields?: Record<string, string[]> } };
    return new TurnRequestError(
      body.error?.message ?? `The server refused the message (HTTP ${response.status}).`,
      response.status,
      body.error?.code ?? "http_error",
      body.error?.fields,
    );
  } catch {
    return new TurnRequestError(`The server refused the message (HTTP ${response.status}).`, response.status, "http_error");
  }
}

function parseLine(line: string): TurnEvent | null {
  const trimmed = line.trim();
  if (!trimmed) return null;
  try {
    return JSON.parse(trimmed) as TurnEvent;
  } catch {
    return null;
  }
}

/**
 * Starts a turn and yields its events as they arrive. Aborting `signal` ends the
 * generator quietly (the caller also calls stopTurnAction so the server keeps the
 * partial reply).
 */
export async function* streamTurn(
  conversationId: string,
  request: TurnRequest,
  signal?: AbortSignal,
): AsyncGenerator<TurnEvent> {
  const response = await fetch(`/api/conversations/${encodeURIComponent(conversationId)}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/x-ndjson" },
    body: JSON.stringify({ ...request, stream: true }),
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw await readError(response);
  if (!response.body) throw new TurnRequestError("The server sent no stream.", response.status, "no_body");

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
      if (chunk.done) break;
      buffer += chunk.value;
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        const event = parseLine(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        if (event) yield event;
        newline = buffer.indexOf("\n");
      }
    }
    const last = parseLine(buffer);
    if (last) yield last;
  } finally {
    reader.releaseLock();
  }
}
