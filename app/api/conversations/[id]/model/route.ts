import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse, readJsonObject } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/conversations/:id/model — its model, instructions and temperature, and the models to offer. */
export function GET(request: Request, { params }: Params) {
  return handleUser(request, async (user) => jsonResponse(await ops.modelSettings(user, (await params).id)));
}

/** PATCH /api/conversations/:id/model {model?, instructions?, temperature? (null: none)} — answers the settings and the meter re-measured. */
export function PATCH(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    const body = await readJsonObject(request);
    return jsonResponse(await ops.updateModelSettings(user, { ...body, conversationId: (await params).id }));
  });
}
