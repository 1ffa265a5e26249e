import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/path?seq= — the compactions to open down to message #seq, with their first pages. */
export const GET = ownerReadRoute("treePath", (user, conversationId, query) => ops.treePath(user, { conversationId, ...query }));
