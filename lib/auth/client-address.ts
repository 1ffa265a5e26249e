// The address a request to /api/auth comes from, for the library's per-address sign-in
// limit. Next.js passes a client's own X-Forwarded-For through untouched (it fills the
// header in only when it is missing), so that header alone names whatever the client
// likes. The socket's address is stamped on every request instead, under a header of
// ours that overwrites anything the client sent; X-Forwarded-For counts only as far as
// the hops that handed it on are STRATA_TRUSTED_PROXIES.
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";

/** The TCP peer of the request, as this process saw it. */
export const PEER_HEADER = "x-strata-peer";
/** What the auth library reads (advanced.ipAddress.ipAddressHeaders): the forwarded chain, ending in the peer. */
export const CLIENT_CHAIN_HEADER = "x-strata-client-chain";

const globalForPeer = globalThis as unknown as { strataPeerStamp?: boolean };

/**
 * Writes each incoming request's socket address into PEER_HEADER before the app sees
 * the request (Node publishes "http.server.request.start" just before the server's
 * "request" event). Once per process, from the server's start.
 */
export function stampPeerAddresses(): void {
  if (globalForPeer.strataPeerStamp) return;
  subscribe("http.server.request.start", (message) => {
    const { request } = message as { request: IncomingMessage };
    request.headers[PEER_HEADER] = request.socket.remoteAddress ?? "";
  });
  globalForPeer.strataPeerStamp = true;
}

/** The request's TCP peer, or null where this process does not stamp peers (the header could then be the client's own). */
export function peerAddress(headers: Headers): string | null {
  return globalForPeer.strataPeerStamp ? headers.get(PEER_HEADER) : null;
}

/**
 * The chain for the library: the peer alone, or, with trusted proxies, the forwarded
 * addresses followed by the peer, which the library walks from the right past the
 * trusted hops. Null where this process does not stamp peers: the header could then
 * be the client's own.
 */
export function clientChain(headers: Headers, trustForwarded: boolean): string | null {
  const peer = peerAddress(headers);
  if (!peer) return null;
  const forwarded = trustForwarded ? headers.get("x-forwarded-for")?.trim() : undefined;
  return forwarded ? `${forwarded}, ${peer}` : peer;
}
