// Server actions return errors as values: a thrown error's message is hidden from the
// browser in production builds, and the user must see why something was refused.
import { AppError } from "../errors";
import { logger } from "../log/logger";
import { databaseCause } from "../db/health";

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
