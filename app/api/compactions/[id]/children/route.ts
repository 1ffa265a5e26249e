import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/compactions/:id/children?afterSeq=&limit= — what a compaction replaced, paged. */
export const GET = ownerReadRoute("children", (user, compactionId, query) => ops.compactionChildren(user, { compactionId, ...query }));
