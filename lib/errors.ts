// Errors the user may see. Everything else is a bug and is logged, not shown.
import type { z } from "zod";

export type AppErrorCode =
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "busy"
  | "rate_limited"
  | "model_error"
  | "payload_too_large";

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
