import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST /api/compactions/:id/conversation — 201 with a new conversation continued from this summary. */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) =>
    jsonResponse({ conversation: await ops.conversationFromSummary(user, { compactionId: (await params).id }) }, 201),
  );
}
