// The body of a request to /api/auth, read before the library sees it: nothing there
// needs more than a few kilobytes (an email, a password, a name), and these endpoints
// answer anyone, so the body is bounded by its declared length first and then read as
// a stream that stops at the limit.

/** Largest body accepted by /api/auth (bytes). */
export const AUTH_BODY_LIMIT = 64 * 1024;

export type BoundedBody = { ok: true; bytes: Uint8Array<ArrayBuffer> | null } | { ok: false };

export async function readBoundedBody(request: Request, limit = AUTH_BODY_LIMIT): Promise<BoundedBody> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return { ok: false };
  if (!request.body) return { ok: true, bytes: null };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return { ok: false };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}
