// Shared plumbing for the JSON API's route handlers: body parsing with limits,
// AppError → HTTP status, and NDJSON streaming of a turn.
import { AppError, MAX_INPUT_DEPTH, toActionError, tooDeep } from "../errors";
import { config } from "../config";
import { requireRequestUser, type CurrentUser } from "../auth/current-user";
import type { TurnEvent } from "../chat/events";
import { eventStream } from "../chat/event-stream";
import { span, withServerTiming } from "../log/timing";
import { withTransportSecurity } from "./origin";
import { readAtMost } from "./bounded-body";

/** Largest JSON body accepted (STRATA_MAX_BODY_BYTES), read per request. */
const maxBodyBytes = () => config().STRATA_MAX_BODY_BYTES;

export function jsonResponse(data: unknown, status = 200): Response {
  return Response.json(data, { status, headers: { "cache-control": "no-store" } });
}

export function errorResponse(error: unknown): Response {
  const status = error instanceof AppError ? error.status : 500;
  return jsonResponse({ error: toActionError(error) }, status);
}

/**
 * Reads a JSON body: 415 for another content type, 413 past the limit, 400 for bad JSON,
 * bytes that are not UTF-8 or nesting deeper than MAX_INPUT_DEPTH.
 */
export async function readJsonBody(request: Request, maxBytes = maxBodyBytes()): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw Object.assign(new AppError("invalid_input", "Send the body as application/json."), { httpStatus: 415 });
  }
  const tooLarge = () => new AppError("payload_too_large", `The request body is larger than ${maxBytes.toLocaleString("en-US")} bytes.`);
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  const bytes = await readAtMost(request.body, maxBytes);
  if (!bytes) throw tooLarge();
  const text = decodeUtf8(bytes);
  if (!text.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new AppError("invalid_input", "The request body is not valid JSON.");
  }
  // JSON.parse copes with any depth, but what walks the value afterwards (validation, the
  // NUL and surrogate check) should never see one nested deeper than any real input.
  if (nestingExceeds(text, MAX_INPUT_DEPTH)) throw tooDeep();
  return body;
}

/**
 * Invalid UTF-8 is refused, not turned into U+FFFD: the replacement would be stored in
 * place of what the client meant, silently (lone surrogates are refused the same way,
 * by the check every operation runs on its input).
 */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("invalid_input", "The request body is not valid UTF-8.");
  }
}

/** Whether the JSON `text` nests objects and arrays deeper than `max`: one pass, brackets inside strings skipped. */
function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++; // backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      if (++depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return false;
}

/** A JSON body that must be an object (every endpoint with a body takes one). */
export async function readJsonObject(request: Request, maxBytes = maxBodyBytes()): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request, maxBytes);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new AppError("invalid_input", "The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

/** Runs a handler and turns thrown errors into JSON error responses. */
export async function handle(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    const override = (error as { httpStatus?: number }).httpStatus;
    if (override) return jsonResponse({ error: toActionError(error) }, override);
    return errorResponse(error);
  }
}

/**
 * Runs a handler for the user behind the request (personal API token or session
 * cookie): 401 without one, 403 for a cross-site change. Every route handler but the
 * auth library's goes through here; over https its response carries HSTS.
 */
export async function handleUser(request: Request, work: (user: CurrentUser) => Promise<Response>): Promise<Response> {
  const response = await withServerTiming(() => handle(async () => work(await span("auth", () => requireRequestUser(request)))));
  return withTransportSecurity(request, response);
}

/** Streams turn events as NDJSON, one event per line. */
export function ndjsonResponse(events: AsyncGenerator<TurnEvent>): Response {
  const encoder = new TextEncoder();
  const lines = eventStream(events, (event) => encoder.encode(`${JSON.stringify(event)}\n`));
  return new Response(lines, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Drains a turn into one JSON result (for scripts that don't want a stream). */
export async function collectTurn(events: AsyncGenerator<TurnEvent>): Promise<{ events: TurnEvent[]; error: string | null }> {
  const collected: TurnEvent[] = [];
  let error: string | null = null;
  for await (const event of events) {
    if (event.type === "delta" || event.type === "reasoning") continue;
    if (event.type === "error") error = event.message;
    collected.push(event);
  }
  return { events: collected, error };
}
