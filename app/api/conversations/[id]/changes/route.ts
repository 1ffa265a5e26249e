import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/conversations/:id/changes — {version, turnRunning, approvals}: a cheap state
 * that moves with every stored message, rewind, compaction and pin, and the tool calls
 * waiting for the user's approval in this server process. Open tabs poll it (a plain GET,
 * so polling never queues behind the page's server actions) and reload what changed.
 */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => {
    const response = jsonResponse(await ops.changeState(user, (await params).id));
    response.headers.set("cache-control", "no-store");
    return response;
  });
}
