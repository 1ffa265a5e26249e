import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/pages?archived=&after=&limit= — a page of the sidebar's list (keyset cursor in `after`), or of the archive. */
export const GET = ownerReadRoute("conversationPage", (user, _id, query) => ops.conversationPage(user, query));
