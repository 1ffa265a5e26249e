import * as ops from "@/lib/chat/operations";
import { attachmentResponse } from "@/lib/http/attachment-response";
import { sharedResponse } from "@/lib/http/shared-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string; id: string }> };

/**
 * GET /api/shared/:token/attachments/:id — a file of the shared conversation, as its owner
 * downloads it (`?view=inline` shows an image in place). Any other id answers as an
 * unknown link does.
 */
export function GET(request: Request, { params }: Params) {
  return sharedResponse(request, params, async (token, client) => attachmentResponse(request, await ops.sharedAttachmentFile(token, client, (await params).id)));
}
