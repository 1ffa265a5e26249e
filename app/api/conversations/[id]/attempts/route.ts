import * as ops from "@/lib/chat/operations";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/conversations/:id/attempts — compaction attempts, failed ones included, and
 * `background`: compaction queued, running or waiting to retry.
 */
export const GET = ownerReadRoute("activity", (user, conversationId) => ops.attempts(user, conversationId));
