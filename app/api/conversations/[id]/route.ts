import * as ops from "@/lib/chat/operations";
import { handle, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/conversations/:id */
export function GET(_request: Request, { params }: Params) {
  return handle(async () => jsonResponse({ conversation: await ops.getConversation((await params).id) }));
}

/** PATCH /api/conversations/:id {title?, model?, systemPrompt?} */
export function PATCH(request: Request, { params }: Params) {
  return handle(async () => {
    const body = await readJsonObject(request);
    return jsonResponse({ conversation: await ops.updateConversation({ ...body, conversationId: (await params).id }) });
  });
}

/** DELETE /api/conversations/:id */
export function DELETE(_request: Request, { params }: Params) {
  return handle(async () => {
    await ops.deleteConversation((await params).id);
    return new Response(null, { status: 204 });
  });
}
