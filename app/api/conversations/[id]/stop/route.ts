import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";

/** POST /api/conversations/:id/stop — stops the reply being streamed, keeping what arrived. */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => jsonResponse(await ops.stop(user, (await params).id)));
}
