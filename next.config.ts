import { networkInterfaces } from "node:os";
import type { NextConfig } from "next";
import { ACTION_BODY_LIMIT_BYTES } from "./lib/http/action-limit";

// `next dev` serves its scripts only to the origins it knows; a page opened at
// 127.0.0.1 or a LAN address would render but never hydrate. Every address of this
// machine is allowed (development only; `next start` does not use this list).
function devOrigins(): string[] {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .flatMap((entry) => (entry ? [entry.address] : []));
  return [...new Set(["localhost", "127.0.0.1", "[::1]", ...addresses.map((address) => (address.includes(":") ? `[${address}]` : address))])];
}

// Headers that are the same on every response; the page CSP (with its per-request
// nonce) comes from proxy.ts. JSON responses get a CSP that allows nothing at all.
const EVERYWHERE = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

const SHARED_LINK = [
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Robots-Tag", value: "noindex, nofollow" },
];

const nextConfig: NextConfig = {
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "tiktoken", "pino", "piscina", "unpdf"],
  experimental: {
    // proxy.ts refuses a larger action body with 413 before Next.js (which would answer 500) reads it.
    serverActions: { bodySizeLimit: ACTION_BODY_LIMIT_BYTES },
    // How much of a body Next.js copies for proxy.ts (the rest is cut off, a whole socket
    // chunk at a time): enough past the limit that a body over it is seen to be.
    proxyClientMaxBodySize: ACTION_BODY_LIMIT_BYTES + 1024 * 1024,
  },
  poweredByHeader: false,
  allowedDevOrigins: devOrigins(),
  async headers() {
    return [
      { source: "/:path*", headers: EVERYWHERE },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }] },
      // A shared link's page: its address is the key, so no other site learns it, and no index or shared cache keeps it.
      { source: "/s/:path*", headers: SHARED_LINK },
      { source: "/api/shared/:path*", headers: SHARED_LINK },
    ];
  },
};

export default nextConfig;
