// The reason a model server gives for an error, short enough to show. The openai client
// keeps an error body's `error` member, or the whole body when it has none: servers that
// answer `{"message": …}` (NVIDIA NIM) or `{"detail": […]}` (FastAPI, pydantic) put their
// reason elsewhere than OpenAI's `error.message`.

import type { APIError } from "openai";

const MAX_DETAIL_CHARS = 200;

export function errorDetailOf(error: APIError): string | undefined {
  const text = reasonIn(error.error);
  return text ? (text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text) : undefined;
}

function reasonIn(body: unknown): string | undefined {
  if (typeof body === "string") return body.trim() || undefined;
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ["message", "error", "detail"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return value;
    if (Array.isArray(value)) return value.map(validationItem).filter(Boolean).join("; ") || undefined;
  }
  return undefined;
}

/** One item of a FastAPI validation error: `{loc: ["body", "x"], msg: "Extra inputs are not permitted"}` → "x: Extra inputs are not permitted". */
function validationItem(item: unknown): string {
  if (typeof item === "string") return item;
  if (typeof item !== "object" || item === null) return "";
  const { loc, msg } = item as { loc?: unknown; msg?: unknown };
  const where = Array.isArray(loc) ? loc.filter((part) => part !== "body").join(".") : "";
  const what = typeof msg === "string" ? msg : "";
  return where && what ? `${where}: ${what}` : what || where;
}
