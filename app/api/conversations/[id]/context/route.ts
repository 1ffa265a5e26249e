import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/context — the context meter: tokens by part, window, thresholds. */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => jsonResponse({ context: await ops.meter(user, (await params).id) }));
}
