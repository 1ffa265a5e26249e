import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";

/** POST /api/conversations/:id/compact {instructions?, preview?} — manual compaction. */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => {
    const body = await readJsonObject(request);
    return jsonResponse(await ops.compactNow(user, { ...body, conversationId: (await params).id }));
  });
}
