// A model server that cannot be reached is named in the error every user of the
// conversation sees: by its address, never by credentials or a key in OPENAI_BASE_URL.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createModelEndpoint, ModelError, streamChat } from "@/lib/llm/client";

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("an unreachable model server", () => {
  it("is named by scheme, host and path, without the user, password or query of its URL", async () => {
    const port = await closedPort();
    const endpoint = createModelEndpoint({ baseURL: `http://team:s3cret-pass@127.0.0.1:${port}/v1/?api-key=k-123`, maxRetries: 0 });
    const failure = await (async () => {
      for await (const _event of streamChat({ endpoint, model: "m", messages: [{ role: "user", content: "Hi" }] })) void _event;
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelError);
    expect((failure as ModelError).message).toBe(`Could not reach the model server at http://127.0.0.1:${port}/v1`);
    expect((failure as ModelError).message).not.toMatch(/s3cret|team|k-123/);
  });
});
