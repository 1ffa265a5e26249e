import { RETRY_AFTER_SECONDS, startImport } from "@/lib/chat/imports";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Exports carry whole histories: larger than the API's usual body limit, but bounded.
const maxImportBytes = () => config().STRATA_MAX_IMPORT_BYTES;

// `Prefer: respond-async` (RFC 7240) asks for the job's id at once; without it the request
// waits for the outcome, as it always has.
const prefersAsync = (request: Request) => /(^|[,;\s])respond-async($|[,;\s])/i.test(request.headers.get("prefer") ?? "");

/**
 * POST /api/conversations/import <a JSON export or a bulk file of them, or a Markdown transcript (text/markdown), streamed>:
 * 201 { conversation } (the first, for a bulk file) when stored;
 * with `Prefer: respond-async`, 202 { import } once the file is received (poll GET /api/imports/:id).
 */
export function POST(request: Request) {
  return handleUser(request, async (user) => {
    const type = (request.headers.get("content-type") ?? "").toLowerCase();
    // A JSON export (one conversation, or the bulk file of all of them) or a Markdown transcript.
    const format = type.startsWith("application/json") ? "json" : type.startsWith("text/markdown") ? "markdown" : null;
    if (!format) {
      throw Object.assign(new AppError("invalid_input", "Send the file as application/json (an export) or text/markdown (a transcript)."), { httpStatus: 415 });
    }
    let started;
    try {
      started = await startImport(user, request.body, maxImportBytes(), Number(request.headers.get("content-length") ?? "0") || 0, format);
    } catch (error) {
      if (error instanceof AppError && error.code === "unavailable") {
        return Response.json({ error: { code: error.code, message: error.message } }, { status: 503, headers: { "retry-after": String(RETRY_AFTER_SECONDS), "cache-control": "no-store" } });
      }
      throw error;
    }
    if (prefersAsync(request)) {
      const response = jsonResponse({ import: { id: started.id, state: "queued" } }, 202);
      response.headers.set("location", `/api/imports/${started.id}`);
      response.headers.set("preference-applied", "respond-async");
      return response;
    }
    return jsonResponse({ conversation: await started.finished }, 201);
  });
}
