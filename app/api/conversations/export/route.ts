import * as ops from "@/lib/chat/operations";
import { handleUser } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/export — every conversation of the user's in one JSON file (an array of exports), streamed. */
export function GET(request: Request) {
  return handleUser(request, async (user) => {
    const file = await ops.exportAllConversations(user);
    return new Response(file.body, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "no-store",
      },
    });
  });
}
