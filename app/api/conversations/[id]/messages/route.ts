import * as ops from "@/lib/chat/operations";
import { collectTurn, handleUser, jsonResponse, ndjsonResponse, readJsonObject } from "@/lib/http/handlers";
import { span, spanSync } from "@/lib/log/timing";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/conversations/:id/messages?beforeSeq=&limit= — the timeline (compactions + messages in view). */
export const GET = ownerReadRoute("timeline", (user, conversationId, query) => ops.timeline(user, { conversationId, ...query }));

/**
 * POST /api/conversations/:id/messages {kind, …, stream?}: a TurnRequest (lib/chat/turn-request.ts)
 * without its conversationId; `kind` may be left out (the older shapes, see there).
 * With stream: true the reply arrives as NDJSON events; otherwise one JSON document.
 * Closing the connection stops the turn and keeps the partial reply.
 */
export function POST(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    const body = await span("body", () => readJsonObject(request));
    const { stream, ...turn } = body;
    const events = await ops.startTurn(user, { ...turn, conversationId: (await params).id }, request.signal);
    if (stream === true) return ndjsonResponse(events);
    const result = await collectTurn(events);
    return spanSync("respond", () => jsonResponse(result, result.error ? 502 : 200));
  });
}
