// Where a browser request that changes something may come from: the origin Strata is
// served at, scheme, host and port alike (an http:// page must not act on the https://
// site, though SameSite=Lax cookies go along). Route handlers (lib/auth/current-user.ts)
// and proxy.ts (pages and their server actions) apply the same rule; HSTS follows the
// same answer to "is this https?".
import { getSessionCookie } from "better-auth/cookies";
import { config, type Config } from "../config";
import { peerAddress } from "../auth/client-address";
import { isTrustedProxy } from "./trusted-proxies";

export type OriginSettings = Pick<Config, "BETTER_AUTH_URL" | "STRATA_TRUSTED_PROXIES">;

/** Sent on every response served over https; never over plain http (a dev server on localhost). */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The first entry of a header a chain of proxies may have appended to ("https, http"). */
export function firstEntry(value: string | null): string | null {
  const first = value?.split(",")[0]?.trim();
  return first ? first : null;
}

export function originOf(text: string): string | null {
  try {
    const origin = new URL(text).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Whether the request reached this process through one of the trusted proxies. A process
 * that stamps peers (the server started by lib/server) knows; a request built in process
 * has no peer, and the setting alone decides.
 */
function fromTrustedProxy(headers: Headers, proxies: string): boolean {
  const peer = peerAddress(headers);
  return peer === null || isTrustedProxy(peer, proxies);
}

/**
 * The origin this request was sent to. BETTER_AUTH_URL when set (the public URL).
 * Else, when the request came through one of STRATA_TRUSTED_PROXIES, what the proxy
 * says (X-Forwarded-Proto and -Host). Else the Host the browser connected to, over plain http: `next start` serves no
 * TLS, and a client's own X-Forwarded-Proto is believed only from a configured proxy
 * (Next.js passes it through, and also folds it into request.url). A request built in
 * process without a Host header (tests, scripts) is taken at its URL.
 */
export function servedOrigin(request: Pick<Request, "url" | "headers">, settings: OriginSettings = config()): string | null {
  if (settings.BETTER_AUTH_URL) return originOf(settings.BETTER_AUTH_URL);
  const { headers } = request;
  if (settings.STRATA_TRUSTED_PROXIES?.trim() && fromTrustedProxy(headers, settings.STRATA_TRUSTED_PROXIES)) {
    const host = firstEntry(headers.get("x-forwarded-host")) ?? headers.get("host") ?? new URL(request.url).host;
    const scheme = firstEntry(headers.get("x-forwarded-proto"))?.toLowerCase() ?? "http";
    return scheme === "http" || scheme === "https" ? originOf(`${scheme}://${host}`) : null;
  }
  const host = headers.get("host");
  return host ? originOf(`http://${host}`) : originOf(request.url);
}

/** Whether the response goes out over https, so that it carries HSTS. */
export function servedOverHttps(request: Pick<Request, "url" | "headers">, settings: OriginSettings = config()): boolean {
  return servedOrigin(request, settings)?.startsWith("https:") ?? false;
}

/** The response, with HSTS when it goes out over https. */
export function withTransportSecurity<R extends Response>(request: Pick<Request, "url" | "headers">, response: R): R {
  if (!servedOverHttps(request)) return response;
  try {
    response.headers.set("strict-transport-security", STRICT_TRANSPORT_SECURITY);
  } catch {
    // immutable headers (a response passed on as fetched): the browser has HSTS from the pages
  }
  return response;
}

/**
 * Why a request must be refused as cross-site; null when it may go on. Reads and
 * OPTIONS pass. An Origin header, when sent, must be the served origin exactly. Without
 * one, a request carrying the session cookie is refused (every browser sends Origin on
 * such requests; a form or script on another site relying on the cookie is what this
 * stops), unless it is authenticated by an Authorization header (the cookie is then
 * ignored, and no other site can make a browser send that header).
 */
export function crossSiteRefusal(request: Pick<Request, "url" | "headers" | "method">, settings: OriginSettings = config()): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const origin = request.headers.get("origin");
  if (origin === null) {
    if (request.headers.has("authorization") || !getSessionCookie(request.headers)) return null;
    return "A request that changes something with the session cookie must carry an Origin header; a browser sends one.";
  }
  const served = servedOrigin(request, settings);
  if (served !== null && originOf(origin) === served) return null;
  return `Cross-site requests are refused: this one came from ${JSON.stringify(origin.slice(0, 100))}, but Strata is served at ${
    served ?? "an address it cannot tell"
  }. Behind a reverse proxy, set BETTER_AUTH_URL (or STRATA_TRUSTED_PROXIES).`;
}
