import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/prices — the price in effect per model (admin only). */
export function GET(request: Request) {
  return handleUser(request, async (user) => jsonResponse({ prices: await ops.prices(user) }));
}

/** PUT /api/prices {model, inputPerMillion, cachedInputPerMillion, outputPerMillion} — all null: tokens only (admin only). */
export function PUT(request: Request) {
  return handleUser(request, async (user) => jsonResponse({ prices: await ops.savePrice(user, await readJsonObject(request)) }));
}
