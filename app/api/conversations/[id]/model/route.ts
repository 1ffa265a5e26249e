import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";
import { ownerReadRoute } from "@/lib/http/owner-read-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/conversations/:id/model — its model, instructions and temperature, and the models to offer. */
export const GET = ownerReadRoute("modelSettings", (user, conversationId) => ops.modelSettings(user, conversationId));

/** PATCH /api/conversations/:id/model {model?, instructions?, temperature? (null: none)} — answers the settings and the meter re-measured. */
export function PATCH(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    const body = await readJsonObject(request);
    return jsonResponse(await ops.updateModelSettings(user, { ...body, conversationId: (await params).id }));
  });
}
