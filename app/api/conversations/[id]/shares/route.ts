import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/shares — its share links, without their tokens. */
export const GET = ownerReadRoute("shareLinks", async (user, conversationId) => ({ links: await ops.listShareLinks(user, conversationId) }));
