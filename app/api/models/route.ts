import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/models — whether the demo model is in use, the default model, and the endpoint's models. */
export function GET(request: Request) {
  return handleUser(request, async () => jsonResponse(await ops.modelInfo()));
}
