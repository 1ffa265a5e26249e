// The body of a request to /api/auth, read before the library sees it: nothing there
// needs more than a few kilobytes (an email, a password, a name), and these endpoints
// answer anyone, so the body is bounded by its declared length first and then read as
// a stream that stops at the limit.

import { readAtMost } from "../http/bounded-body";

/** Largest body accepted by /api/auth (bytes). */
export const AUTH_BODY_LIMIT = 64 * 1024;

export type BoundedBody = { ok: true; bytes: Uint8Array<ArrayBuffer> | null } | { ok: false };

export async function readBoundedBody(request: Request, limit = AUTH_BODY_LIMIT): Promise<BoundedBody> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return { ok: false };
  if (!request.body) return { ok: true, bytes: null };
  const read = await readAtMost(request.body, limit);
  if (!read) return { ok: false };
  // A copy with its own ArrayBuffer, as Request bodies take.
  const bytes = new Uint8Array(read.byteLength);
  bytes.set(read);
  return { ok: true, bytes };
}
