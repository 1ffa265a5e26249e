import * as ops from "@/lib/chat/operations";
import { handle, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";

/** POST /api/conversations/:id/stop — stops the reply being streamed, keeping what arrived. */
export function POST(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => jsonResponse(ops.stop((await params).id)));
}
