import * as ops from "@/lib/chat/operations";
import { listModels } from "@/lib/llm/client";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/conversations/:id/settings — the settings this conversation runs with, and where each comes from. */
export function GET(request: Request, { params }: Params) {
  return handleUser(request, async (user) => jsonResponse(await ops.conversationSettings(user, (await params).id)));
}

/** PATCH /api/conversations/:id/settings {threshold?, keepRecentCount?, strategy?, summaryModel?, customPrompt?} — null removes an override. */
export function PATCH(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    const body = await readJsonObject(request);
    return jsonResponse(await ops.updateConversationSettings(user, { ...body, conversationId: (await params).id }, await listModels()));
  });
}
