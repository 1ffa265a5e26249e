// Errors the user may see. Everything else is a bug and is logged, not shown.
export type AppErrorCode = "invalid_input" | "not_found" | "conflict" | "busy" | "model_error" | "payload_too_large";

const HTTP_STATUS: Record<AppErrorCode, number> = {
  invalid_input: 400,
  not_found: 404,
  conflict: 409,
  busy: 409,
  payload_too_large: 413,
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

export function notFound(what: string, id: string): AppError {
  return new AppError("not_found", `No ${what} with id "${id}".`);
}
