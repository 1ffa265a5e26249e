import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/cost — what the conversation's model calls cost: in all, this turn, compaction, per compaction. */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => jsonResponse({ cost: await ops.conversationCost(user, (await params).id) }));
}
