import * as ops from "@/lib/chat/operations";
import { queryNumber, sharedRoute } from "@/lib/http/shared-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/shared/:token/path?seq= — the compactions to open down to message #seq, with their first pages. */
export function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return sharedRoute(request, params, (token, client, query) => ops.sharedTreePath(token, client, { seq: queryNumber(query, "seq") }));
}
