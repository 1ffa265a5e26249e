import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/compactions/:id/children?afterSeq=&limit= — what a compaction replaced, paged. */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => {
    const url = new URL(request.url);
    const number = (name: string) => (url.searchParams.has(name) ? Number(url.searchParams.get(name)) : undefined);
    return jsonResponse(
      await ops.compactionChildren(user, { compactionId: (await params).id, afterSeq: number("afterSeq"), limit: number("limit") }),
    );
  });
}
