import * as ops from "@/lib/chat/operations";
import { handle, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";

/** POST /api/conversations/:id/compact {instructions?, preview?} — manual compaction. */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const body = await readJsonObject(request);
    return jsonResponse(await ops.compactNow({ ...body, conversationId: (await params).id }));
  });
}
