import * as ops from "@/lib/chat/operations";
import { handle, jsonResponse, readJsonBody } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations — newest first. */
export function GET() {
  return handle(async () => jsonResponse({ conversations: await ops.listConversations() }));
}

/** POST /api/conversations {title?, model?, systemPrompt?} */
export function POST(request: Request) {
  return handle(async () => jsonResponse({ conversation: await ops.createConversation(await readJsonBody(request)) }, 201));
}
