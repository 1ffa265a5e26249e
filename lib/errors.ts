// Errors the user may see, and how any error reaches the user. AppError is what the code
// throws on purpose; toActionError is the one translation of whatever was thrown into what
// an action result, an API response or a turn's error event shows. Everything else is a
// bug and is logged, not shown.
import type { z } from "zod";
import { databaseCause } from "./db/database-cause";
import { issueMessage } from "./issue-messages";
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
const SURROGATE_MESSAGE = "Text contains invalid Unicode (a lone surrogate).";

/**
 * How deeply nested an input may be (objects and arrays, the top one counting 1). Every
 * input Strata reads is at most a handful of levels deep (an export: file, compaction,
 * sections, a value there); past this a walk over it is refused, not attempted.
 */
export const MAX_INPUT_DEPTH = 64;

export function tooDeep(prefix = ""): AppError {
  return new AppError("invalid_input", `${prefix}The input is nested deeper than ${MAX_INPUT_DEPTH} levels.`, {
    _: [`Nested deeper than ${MAX_INPUT_DEPTH} levels.`],
  });
}

// Lone surrogates cannot be encoded as UTF-8, nor stored by PostgreSQL as text.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored as text, or null when it can. */
export function unstorableText(text: string): string | null {
  if (text.includes("\u0000")) return NUL_MESSAGE;
  return LONE_SURROGATE.test(text) ? SURROGATE_MESSAGE : null;
}

// A parent chain rather than a copied path per value: the walk stays linear in the input.
type Visit = { value: unknown; depth: number; key: string | null; parent: Visit | null };

function pathOf(visit: Visit, last?: string): string {
  const keys = last === undefined ? [] : [last];
  for (let at: Visit | null = visit; at?.key != null; at = at.parent) keys.push(at.key);
  return keys.reverse().join(".");
}

/**
 * Refuses text PostgreSQL cannot store anywhere in a parsed input (values and object
 * keys): NUL (JSON can carry it; text and jsonb cannot) and lone surrogates (no UTF-8
 * form) — one rule for every text field, so neither fails half-way through a write
 * with a 500. Iterative and bounded by MAX_INPUT_DEPTH, so no input can exhaust the stack.
 */
export function assertStorableText(value: unknown, prefix = ""): void {
  const stack: Visit[] = [{ value, depth: 0, key: null, parent: null }];
  const refuse = (path: string, message: string) =>
    new AppError("invalid_input", `${prefix}${path ? `${path}: ` : ""}${message}`, { [path || "_"]: [message] });
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const current = visit.value;
    if (typeof current === "string") {
      const problem = unstorableText(current);
      if (problem) throw refuse(pathOf(visit), problem);
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (visit.depth >= MAX_INPUT_DEPTH) throw tooDeep(prefix);
    const entries = Object.entries(current);
    // Pushed last to first, so the first problem in document order is the one reported.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      const problem = unstorableText(key);
      if (problem) throw refuse(pathOf(visit, key.replaceAll("\u0000", "\\0")), problem);
      stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
    }
  }
}

/**
 * A union of strict objects (a turn: a message, an edit, a retry, …) refused as a whole
 * says only "Invalid input"; the branch whose names the input uses says what is wrong.
 */
function fittingBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union") return [issue];
  const fitting = issue.errors.filter((branch) => !branch.some((inner) => inner.code === "unrecognized_keys"));
  if (fitting.length !== 1) return [issue];
  return fitting[0]!.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
}

/** A refused input: the first problem as the message, every problem by field. */
export function invalidInput(error: z.ZodError): AppError {
  const fields: Record<string, string[]> = {};
  const issues = error.issues.flatMap(fittingBranch);
  for (const issue of issues) (fields[issue.path.join(".") || "_"] ??= []).push(issueMessage(issue));
  const first = issues[0];
  const where = first?.path.length ? `${first.path.join(".")}: ` : "";
  return new AppError("invalid_input", `${where}${first ? issueMessage(first) : "Invalid input."}`, fields);
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
