import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse, readJsonBody } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations — the caller's conversations, newest first. */
export function GET(request: Request) {
  return handleUser(request, async (user) => jsonResponse({ conversations: await ops.listConversations(user) }));
}

/** POST /api/conversations {title?, model?, systemPrompt?} */
export function POST(request: Request) {
  return handleUser(request, async (user) =>
    jsonResponse({ conversation: await ops.createConversation(user, await readJsonBody(request)) }, 201),
  );
}
