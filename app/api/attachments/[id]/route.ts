import * as ops from "@/lib/chat/operations";
import { attachmentResponse } from "@/lib/http/attachment-response";
import { handleUser } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/**
 * GET /api/attachments/:id — the original file, owner only (lib/http/attachment-response.ts:
 * a download; `?view=inline` shows an image in place).
 */
export function GET(request: Request, { params }: Params) {
  return handleUser(request, async (user) => attachmentResponse(request, await ops.downloadAttachment(user, (await params).id)));
}

/** DELETE /api/attachments/:id — removes an upload not sent yet (a sent one stays with its message). */
export function DELETE(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    await ops.removeAttachment(user, (await params).id);
    return new Response(null, { status: 204 });
  });
}
