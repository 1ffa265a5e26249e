// One error type for everything that can go wrong talking to a model, with a
// message fit to show the user and a `kind` the chat/compression layers can branch
// on (retry a timeout, don't retry an invalid key, stay quiet on a user abort).

import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { errorDetailOf } from "./error-detail";

export type ModelErrorKind = "http" | "timeout" | "aborted" | "malformed" | "network";

export class ModelError extends Error {
  override readonly name = "ModelError";
  readonly kind: ModelErrorKind;
  /** HTTP status for kind "http" when the server sent one. */
  readonly status?: number;

  constructor(kind: ModelErrorKind, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
  }
}

export function isModelError(error: unknown): error is ModelError {
  return error instanceof ModelError;
}

/** "60 s", "1.5 s", "300 ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

export function timeoutError(timeoutMs: number, cause?: unknown): ModelError {
  return new ModelError("timeout", `The model did not answer within ${formatDuration(timeoutMs)}`, { cause });
}

export function abortedError(cause?: unknown): ModelError {
  return new ModelError("aborted", "The request was cancelled", { cause });
}

export function malformedError(detail?: string, cause?: unknown): ModelError {
  return new ModelError("malformed", detail ? `The model stream was malformed: ${detail}` : "The model stream was malformed", {
    cause,
  });
}

/** What the caller knows about why its abort signal fired. */
export type AbortContext = { timedOut: boolean; timeoutMs: number; baseURL?: string };

/**
 * The model server's address as every user may see it: scheme, host and path. A user
 * name, password or query in OPENAI_BASE_URL (some proxies take a key there) stays on
 * the server.
 */
export function shownAddress(baseURL: string): string | null {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, "")}`;
  } catch {
    return null;
  }
}

/** Maps anything thrown by the openai client (or our own code) to a ModelError. */
export function toModelError(error: unknown, context: AbortContext): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIConnectionTimeoutError) return timeoutError(context.timeoutMs, error);
  if (error instanceof APIUserAbortError || isAbortLike(error)) {
    return context.timedOut ? timeoutError(context.timeoutMs, error) : abortedError(error);
  }
  if (error instanceof APIConnectionError) {
    const where = context.baseURL ? shownAddress(context.baseURL) : null;
    return new ModelError("network", `Could not reach the model server${where ? ` at ${where}` : ""}`, { cause: error });
  }
  if (error instanceof APIError) {
    const status = error.status;
    if (status === undefined) {
      // An error object sent inside the stream (`data: {"error": …}`).
      return new ModelError("http", `The model server reported an error: ${errorDetailOf(error) ?? "unknown error"}`, { cause: error });
    }
    return new ModelError("http", httpMessage(status, errorDetailOf(error)), { status, cause: error });
  }
  if (error instanceof SyntaxError) return malformedError(undefined, error);
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError("network", `The model request failed: ${message}`, { cause: error });
}

function httpMessage(status: number, detail: string | undefined): string {
  if (status === 401) return "Invalid API key";
  if (status === 403) return "The API key is not allowed to use this model (HTTP 403)";
  if (status === 429) return "The model server is rate limiting requests (HTTP 429)";
  const base = `The model server returned HTTP ${status}`;
  // 4xx details are useful ("model not found", "context_length_exceeded"); 5xx ones are noise.
  return status < 500 && detail ? `${base}: ${detail}` : base;
}

function isAbortLike(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}
