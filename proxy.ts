// Every request to a page path, before Next.js handles it. A request that changes
// something (a server action) is checked first: cross-site 403, body over the limit
// 413, undecodable arguments 400 (lib/http/page-writes.ts), where Next.js itself would
// answer 500. Pages get a Content-Security-Policy with a fresh nonce per request: Next.js
// puts it on its own scripts, so no inline script without it can run. HSTS goes on every
// response served over https. API routes are left out (they return JSON, check their own
// requests, and the proxy would buffer their bodies); next.config.ts sets the headers
// that do not change per request, on every route.
import { NextResponse, type NextRequest } from "next/server";
import { withTransportSecurity } from "./lib/http/origin";
import { pageWriteRefusal } from "./lib/http/page-writes";
import { PAGE_PATH_HEADER } from "./lib/auth/next-path";

export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    // React's development build evaluates code for its error overlays.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // The development overlay injects <style> elements of its own, without the nonce.
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    // Widths and offsets computed at render (context meter, virtual list) are style attributes.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // Audio a tool returned (MCP audio content) plays from its data: URL.
    "media-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A router prefetch: its response is kept for later, so it gets no nonce of its own. */
function isPrefetch(request: NextRequest): boolean {
  return request.headers.has("next-router-prefetch") || request.headers.get("purpose") === "prefetch";
}

export async function proxy(request: NextRequest) {
  const refusal = await pageWriteRefusal(request);
  if (refusal) {
    const { status, code, message } = refusal;
    return withTransportSecurity(request, NextResponse.json({ error: { code, message } }, { status, headers: { "cache-control": "no-store" } }));
  }
  if (isPrefetch(request)) return withTransportSecurity(request, NextResponse.next());
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  // Where a signed-out visitor goes back to after signing in (lib/auth/current-user.ts).
  requestHeaders.set(PAGE_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  // A server action's answer goes out uncompressed. Next.js compresses what a client
  // accepts, and a turn's answer is a stream of small events, each flushed through zlib on
  // its own: at 300 conversations streaming through the action zlib took 15 % of an
  // instance's busy time, to save a few kilobytes a turn. Pages and their scripts stay compressed.
  if (request.method === "POST" && request.headers.has("next-action")) requestHeaders.delete("accept-encoding");
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return withTransportSecurity(request, response);
}

export const config = {
  // Not _next/ at all: the development server's websocket (_next/hmr) must reach it
  // untouched. Prefetches do come through (a header must not be a way around the checks
  // of a POST); they leave with nothing added.
  matcher: ["/((?!api/|_next/|favicon.ico).*)"],
};
