import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse, readJsonBody } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/settings/instructions — what the caller's new conversations start with: {instructions, temperature}. */
export function GET(request: Request) {
  return handleUser(request, async (user) => jsonResponse(await ops.chatDefaults(user)));
}

/** PUT /api/settings/instructions {instructions, temperature (null: the server's default)} */
export function PUT(request: Request) {
  return handleUser(request, async (user) => jsonResponse(await ops.saveChatDefaults(user, await readJsonBody(request))));
}
