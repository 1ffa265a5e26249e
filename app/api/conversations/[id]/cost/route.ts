import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/cost — what the conversation's model calls cost: in all, this turn, compaction, per compaction. */
export const GET = ownerReadRoute("cost", async (user, conversationId) => ({ cost: await ops.conversationCost(user, conversationId) }));
