import * as ops from "@/lib/chat/operations";
import { config } from "@/lib/config";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Exports carry whole histories: larger than the API's usual body limit, but bounded.
const maxImportBytes = () => config().STRATA_MAX_IMPORT_BYTES;

/** POST /api/conversations/import <a JSON export> — 201 with the new conversation. */
export function POST(request: Request) {
  return handleUser(request, async (user) => {
    const body = await readJsonObject(request, maxImportBytes());
    return jsonResponse({ conversation: await ops.importConversation(user, body) }, 201);
  });
}
