import * as ops from "@/lib/chat/operations";
import { handle, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/models — whether the demo model is in use, the default model, and the endpoint's models. */
export function GET() {
  return handle(async () => jsonResponse(await ops.modelInfo()));
}
