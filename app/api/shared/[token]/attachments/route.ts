import * as ops from "@/lib/chat/operations";
import { sharedRoute } from "@/lib/http/shared-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/shared/:token/attachments — the files on the shared conversation's sent messages (no bytes). */
export function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return sharedRoute(request, params, async (token, client) => ({ attachments: await ops.sharedAttachments(token, client) }));
}
