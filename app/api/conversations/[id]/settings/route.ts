import * as ops from "@/lib/chat/operations";
import { listModels } from "@/lib/llm/client";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/conversations/:id/settings — the settings this conversation runs with, and where each comes from. */
export const GET = ownerReadRoute("conversationSettings", (user, conversationId) => ops.conversationSettings(user, conversationId));

/** PATCH /api/conversations/:id/settings {threshold?, keepRecentCount?, strategy?, summaryModel?, customPrompt?} — null removes an override. */
export function PATCH(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    const body = await readJsonObject(request);
    return jsonResponse(await ops.updateConversationSettings(user, { ...body, conversationId: (await params).id }, await listModels()));
  });
}
