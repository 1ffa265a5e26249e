// A stored file as an HTTP answer, for its owner and for a shared link alike: a download,
// never rendered (Content-Disposition attachment, nosniff, a CSP that runs nothing even if
// a browser displayed it). `?view=inline` shows an image in place (the timeline's
// thumbnail and its full-size view); any other file is still a download.
import type { AttachmentFile } from "../db/attachments";

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Types a browser may show in place: raster images whose type was sniffed from their bytes at upload (never SVG, which runs script). */
const SHOWN_IN_PLACE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export function attachmentResponse(request: Request, file: AttachmentFile): Response {
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
}
