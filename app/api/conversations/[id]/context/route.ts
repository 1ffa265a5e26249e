import * as ops from "@/lib/chat/operations";
import { handle, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/context — the context meter: tokens by part, window, thresholds. */
export function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => jsonResponse({ context: await ops.meter((await params).id) }));
}
