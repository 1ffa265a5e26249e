import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/search?q=&conversationId=&limit= — the caller's own messages and summaries, best first. */
export function GET(request: Request) {
  return handleUser(request, async (user) => {
    const params = new URL(request.url).searchParams;
    const input: Record<string, string> = {};
    for (const key of ["q", "conversationId", "limit"]) {
      const value = params.get(key);
      if (value !== null && value !== "") input[key] = value;
    }
    if (params.has("q")) input.q = params.get("q") ?? "";
    return jsonResponse({ results: await ops.search(user, input) });
  });
}
