import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/conversations/:id/attempts — compaction attempts, failed ones included, and
 * `background`: compaction queued, running or waiting to retry.
 */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => jsonResponse(await ops.attempts(user, (await params).id)));
}
