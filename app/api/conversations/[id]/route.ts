import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/conversations/:id */
export function GET(request: Request, { params }: Params) {
  return handleUser(request, async (user) => jsonResponse({ conversation: await ops.getConversation(user, (await params).id) }));
}

/** PATCH /api/conversations/:id {title?, model?, systemPrompt?} */
export function PATCH(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    const body = await readJsonObject(request);
    return jsonResponse({ conversation: await ops.updateConversation(user, { ...body, conversationId: (await params).id }) });
  });
}

/** DELETE /api/conversations/:id */
export function DELETE(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    await ops.deleteConversation(user, (await params).id);
    return new Response(null, { status: 204 });
  });
}
