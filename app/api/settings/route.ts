import * as ops from "@/lib/chat/operations";
import { listModels } from "@/lib/llm/client";
import { handle, jsonResponse, readJsonBody } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/settings */
export function GET() {
  return handle(async () => jsonResponse({ settings: await ops.getSettings() }));
}

/** PUT /api/settings {…every setting} — validated as a whole; applies from the next turn. */
export function PUT(request: Request) {
  return handle(async () => {
    const body = await readJsonBody(request);
    return jsonResponse({ settings: await ops.saveSettings(body, await listModels()) });
  });
}
