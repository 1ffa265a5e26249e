// Reading a request body up to a limit: the one loop the JSON API, /api/auth and the
// server-action checks share. It stops reading (and cancels the stream) as soon as the
// body passes the limit, so a client cannot make the server hold more than that.

/** The body's bytes, or null once it passes `limit` bytes. */
export async function readAtMost(body: ReadableStream<Uint8Array> | null | undefined, limit: number): Promise<Buffer | null> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
