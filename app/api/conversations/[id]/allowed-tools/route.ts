import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/allowed-tools — the tools that run without asking here ("always allow"). */
export const GET = ownerReadRoute("allowedTools", async (user, conversationId) => ops.allowedTools(user, conversationId));
