import * as ops from "@/lib/chat/operations";
import { handleUser } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/conversations/:id/export?format=json|markdown — a download of the whole conversation. */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => {
    const format = new URL(request.url).searchParams.get("format") ?? undefined;
    const file = await ops.exportConversation(user, { conversationId: (await params).id, format });
    return new Response(file.body, {
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${encodeURIComponent(file.filename)}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        "cache-control": "no-store",
      },
    });
  });
}
