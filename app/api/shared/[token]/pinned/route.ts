import * as ops from "@/lib/chat/operations";
import { sharedRoute } from "@/lib/http/shared-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/shared/:token/pinned — pinned originals under the shared conversation's top-level compactions. */
export function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return sharedRoute(request, params, (token, client) => ops.sharedPinned(token, client));
}
