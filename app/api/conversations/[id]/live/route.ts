import * as ops from "@/lib/chat/operations";
import { handleUser, ndjsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/conversations/:id/live — the running turn as NDJSON turn events, for a view of
 * the conversation that did not start it (another tab, another device): what the turn has
 * done so far (its stored messages, its stage, the reply up to now), then each event until
 * the turn ends. Ends at once when no turn of the conversation runs in the process that
 * answers (with several instances, the other views show the reply once it is stored).
 */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => ndjsonResponse(await ops.watchRunningTurn(user, (await params).id, request.signal)));
}
