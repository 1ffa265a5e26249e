import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/context — the context meter: tokens by part, window, thresholds. */
export const GET = ownerReadRoute("meter", async (user, conversationId) => ({ context: await ops.meter(user, conversationId) }));
