import * as ops from "@/lib/chat/operations";
import { queryNumber, sharedRoute } from "@/lib/http/shared-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/shared/:token/messages?beforeSeq=&limit= — the shared conversation's timeline, paged. */
export function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return sharedRoute(request, params, (token, client, query) =>
    ops.sharedTimeline(token, client, { beforeSeq: queryNumber(query, "beforeSeq"), limit: queryNumber(query, "limit") }),
  );
}
