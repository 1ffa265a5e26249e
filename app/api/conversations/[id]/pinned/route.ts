import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/pinned — every pinned message of the conversation, wherever it sits in the tree. */
export const GET = ownerReadRoute("pinnedList", (user, conversationId) => ops.pinnedList(user, conversationId));
