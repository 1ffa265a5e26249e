// The socket address under a header of ours, whatever a client sends, and the chain the
// auth library resolves the client from.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { PEER_HEADER, clientChain, stampPeerAddresses } from "../../../lib/auth/client-address";

describe("client address", () => {
  it("a running server stamps each request with its socket's address, over anything the client sent", async () => {
    stampPeerAddresses();
    const seen: (string | string[] | undefined)[] = [];
    const server = http.createServer((request, response) => {
      seen.push(request.headers[PEER_HEADER]);
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/`, { headers: { [PEER_HEADER]: "203.0.113.9", "x-forwarded-for": "203.0.113.9" } });
      await fetch(`http://127.0.0.1:${port}/`);
    } finally {
      server.close();
    }
    expect(seen).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("X-Forwarded-For joins the chain only with trusted proxies configured", () => {
    stampPeerAddresses();
    const headers = new Headers({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "192.0.2.1, 10.0.0.1" });
    expect(clientChain(headers, false)).toBe("10.0.0.2");
    expect(clientChain(headers, true)).toBe("192.0.2.1, 10.0.0.1, 10.0.0.2");
    expect(clientChain(new Headers({ "x-forwarded-for": "192.0.2.1" }), true)).toBeNull();
  });
});
