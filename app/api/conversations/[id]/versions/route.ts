import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";

/**
 * POST /api/conversations/:id/versions {messageId} — shows that version of a message
 * (a reply or an edited message) with the branch that followed it; `409` while a turn runs.
 */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => {
    const body = await readJsonObject(request);
    return jsonResponse(await ops.switchVersion(user, { ...body, conversationId: (await params).id }));
  });
}
