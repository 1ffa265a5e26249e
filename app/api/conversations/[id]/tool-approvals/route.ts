import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";

/**
 * POST /api/conversations/:id/tool-approvals {callId, approved} — answers a tool call the
 * conversation's running turn waits on (409 when none of that id is waiting).
 */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => {
    const body = await readJsonObject(request);
    return jsonResponse(await ops.answerToolApproval(user, { ...body, conversationId: (await params).id }));
  });
}
