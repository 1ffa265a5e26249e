import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/pinned/covered — pinned originals under the top-level compactions, shown beside their block. */
export const GET = ownerReadRoute("coveredPinned", (user, conversationId) => ops.coveredPinned(user, conversationId));
