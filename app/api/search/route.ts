import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/search?q=&conversationId=&limit= — the caller's own messages and summaries, best first. */
export const GET = ownerReadRoute("search", async (user, _none, query) => ({ results: await ops.search(user, query) }));
