import * as ops from "@/lib/chat/operations";
import { listModels } from "@/lib/llm/client";
import { handleUser, jsonResponse, readJsonBody } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/settings — the caller's own settings (the admin's defaults where they set nothing). */
export function GET(request: Request) {
  return handleUser(request, async (user) => jsonResponse({ settings: await ops.getSettings(user) }));
}

/**
 * PUT /api/settings {…some or all settings} — the named settings change, the others keep
 * their stored values; the result is validated as a whole and applies from the next turn.
 */
export function PUT(request: Request) {
  return handleUser(request, async (user) => {
    const body = await readJsonBody(request);
    return jsonResponse({ settings: await ops.updateSettings(user, body, await listModels()) });
  });
}

/** PATCH /api/settings — the same partial update, for clients that expect PATCH for it. */
export const PATCH = PUT;
