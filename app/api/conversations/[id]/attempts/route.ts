import * as ops from "@/lib/chat/operations";
import { handle, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/attempts — compaction attempts, failed ones included. */
export function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => jsonResponse({ attempts: await ops.attempts((await params).id) }));
}
