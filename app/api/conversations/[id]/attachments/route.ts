import * as ops from "@/lib/chat/operations";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/conversations/:id/attachments — the files on the conversation's sent messages (no bytes). */
export function GET(request: Request, { params }: Params) {
  return handleUser(request, async (user) => jsonResponse({ attachments: await ops.conversationAttachments(user, (await params).id) }));
}

/**
 * POST /api/conversations/:id/attachments?name=<file name> <the file's bytes> — 201 { attachment }:
 * an upload the next message can carry (send it with attachmentIds). 413 past
 * STRATA_ATTACHMENT_MAX_BYTES (reading stops there; nothing is stored), 400 for an empty
 * file or one Strata cannot read (binary, a PDF without a text layer).
 */
export function POST(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    const attachment = await ops.uploadAttachment(user, {
      conversationId: (await params).id,
      name: new URL(request.url).searchParams.get("name") ?? undefined,
      body: request.body,
      declaredLength: Number(request.headers.get("content-length") ?? "0") || 0,
    });
    return jsonResponse({ attachment }, 201);
  });
}
