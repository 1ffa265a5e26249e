import * as ops from "@/lib/chat/operations";
import { handleUser } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * GET /api/attachments/:id — the original file, owner only. Always a download, never
 * rendered: Content-Disposition attachment, nosniff, and a CSP that runs nothing even if
 * a browser displayed it.
 */
export function GET(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    const file = await ops.downloadAttachment(user, (await params).id);
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "content-type": file.mediaType.startsWith("text/") || file.mediaType.startsWith("application/") ? "application/octet-stream" : file.mediaType,
        "content-disposition": contentDisposition(file.name),
        "content-length": String(file.bytes.byteLength),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, no-store",
      },
    });
  });
}

/** DELETE /api/attachments/:id — removes an upload not sent yet (a sent one stays with its message). */
export function DELETE(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    await ops.removeAttachment(user, (await params).id);
    return new Response(null, { status: 204 });
  });
}
