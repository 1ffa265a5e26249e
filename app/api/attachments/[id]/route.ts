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

/** Types a browser may show in place: raster images whose type was sniffed from their bytes at upload (never SVG, which runs script). */
const SHOWN_IN_PLACE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * GET /api/attachments/:id — the original file, owner only. A download, never rendered:
 * Content-Disposition attachment, nosniff, and a CSP that runs nothing even if a browser
 * displayed it. `?view=inline` shows an image in place (the timeline's thumbnail and
 * its full-size view); any other file is still a download.
 */
export function GET(request: Request, { params }: Params) {
  return handleUser(request, async (user) => {
    const file = await ops.downloadAttachment(user, (await params).id);
    const inline = new URL(request.url).searchParams.get("view") === "inline" && SHOWN_IN_PLACE.has(file.mediaType);
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "content-type": file.mediaType.startsWith("text/") || file.mediaType.startsWith("application/") ? "application/octet-stream" : file.mediaType,
        "content-disposition": inline ? contentDisposition(file.name).replace(/^attachment/, "inline") : contentDisposition(file.name),
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
