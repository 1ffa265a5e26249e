// Errors the user may see, and how any error reaches the user. AppError is what the code
// throws on purpose; toActionError is the one translation of whatever was thrown into what
// an action result, an API response or a turn's error event shows. Everything else is a
// bug and is logged, not shown.
import type { z } from "zod";
import { databaseCause } from "./db/health";
import { logger } from "./log/logger";

export type AppErrorCode =
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "busy"
  | "rate_limited"
  | "model_error"
  | "payload_too_large"
  | "unavailable";

const HTTP_STATUS: Record<AppErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  busy: 409,
  payload_too_large: 413,
  rate_limited: 429,
  model_error: 502,
  unavailable: 503,
};

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: Record<string, string[]>;

  constructor(code: AppErrorCode, message: string, details?: Record<string, string[]>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    if (details) this.details = details;
  }

  get status(): number {
    return HTTP_STATUS[this.code];
  }
}

const NUL_MESSAGE = "Text cannot contain NUL characters.";

/** The path of the first string (value or object key) in `value` holding a NUL character, "" at the top, null when none does. */
function nulPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path.join(".") : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes("\u0000")) return [...path, key.replaceAll("\u0000", "\\0")].join(".");
    const found = nulPath(child, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Refuses NUL anywhere in a parsed input. JSON can carry it, but PostgreSQL's text and
 * jsonb cannot store it: left to the database it fails half-way through a write with a 500.
 */
export function assertNoNul(value: unknown, prefix = ""): void {
  const path = nulPath(value);
  if (path === null) return;
  throw new AppError("invalid_input", `${prefix}${path ? `${path}: ` : ""}${NUL_MESSAGE}`, { [path || "_"]: [NUL_MESSAGE] });
}

/** A refused input: the first problem as the message, every problem by field. */
export function invalidInput(error: z.ZodError): AppError {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) (fields[issue.path.join(".") || "_"] ??= []).push(issue.message);
  const first = error.issues[0];
  const where = first?.path.length ? `${first.path.join(".")}: ` : "";
  return new AppError("invalid_input", `${where}${first?.message ?? "Invalid input."}`, fields);
}

export function notFound(what: string, id: string): AppError {
  return new AppError("not_found", `No ${what} with id "${id}".`);
}

// Server actions return errors as values: a thrown error's message is hidden from the
// browser in production builds, and the user must see why something was refused.
export type ActionError = { code: string; message: string; fields?: Record<string, string[]> };
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };

export function toActionError(error: unknown): ActionError {
  if (error instanceof AppError) {
    return { code: error.code, message: error.message, ...(error.details ? { fields: error.details } : {}) };
  }
  logger.error({ err: error }, "unexpected error in a server operation");
  const cause = databaseCause(error);
  if (cause) return { code: "unavailable", message: `${cause} Nothing was changed; try again when it is back.` };
  return { code: "internal", message: "Something went wrong on the server; the error was logged." };
}

export async function asResult<T>(work: () => Promise<T> | T): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    return { ok: false, error: toActionError(error) };
  }
}
