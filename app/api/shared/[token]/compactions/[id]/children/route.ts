import * as ops from "@/lib/chat/operations";
import { queryNumber, sharedRoute } from "@/lib/http/shared-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string; id: string }> };

/** GET /api/shared/:token/compactions/:id/children?afterSeq=&limit= — what one of the shared conversation's compactions replaced. */
export function GET(request: Request, { params }: Params) {
  return sharedRoute(request, params, async (token, client, query) =>
    ops.sharedChildren(token, client, { compactionId: (await params).id, afterSeq: queryNumber(query, "afterSeq"), limit: queryNumber(query, "limit") }),
  );
}
