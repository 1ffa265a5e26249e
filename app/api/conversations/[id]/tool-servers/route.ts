import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/tool-servers — each tool server, on or off here, with its status. */
export const GET = ownerReadRoute("conversationToolServers", async (user, conversationId) => ({ servers: await ops.conversationToolServers(user, conversationId) }));
