import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST /api/compactions/:id/undo — 200 with what came back; 409 while a turn runs or when the rule refuses. */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => jsonResponse({ undone: await ops.undoCompaction(user, { compactionId: (await params).id }) }));
}
