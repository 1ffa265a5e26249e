// STRATA_TRUSTED_PROXIES: which peers' forwarded headers are believed (lib/http/trusted-proxies.ts),
// and the origin rule asking it about the request's TCP peer (lib/http/origin.ts).
import { describe, expect, it } from "vitest";
import { configSchema } from "../../../lib/config";
import { PEER_HEADER, stampPeerAddresses } from "../../../lib/auth/client-address";
import { isTrustedProxy } from "../../../lib/http/trusted-proxies";
import { invalidProxyEntries } from "../../../lib/http/proxy-list";
import { servedOrigin, type OriginSettings } from "../../../lib/http/origin";

describe("the trusted-proxy list", () => {
  it("matches addresses and CIDRs, IPv4 (also IPv4-mapped IPv6) and IPv6", () => {
    const list = "10.0.0.0/8, 192.168.1.7, fd00::/8";
    expect(isTrustedProxy("10.200.3.4", list)).toBe(true);
    expect(isTrustedProxy("::ffff:10.200.3.4", list)).toBe(true);
    expect(isTrustedProxy("192.168.1.7", list)).toBe(true);
    expect(isTrustedProxy("192.168.1.8", list)).toBe(false);
    expect(isTrustedProxy("11.0.0.1", list)).toBe(false);
    expect(isTrustedProxy("fd12::1", list)).toBe(true);
    expect(isTrustedProxy("fe80::1", list)).toBe(false);
    expect(isTrustedProxy("not an address", list)).toBe(false);
  });

  it("names the entries that are not addresses or CIDRs, and the config refuses them", () => {
    expect(invalidProxyEntries("10.0.0.0/8, ::1, 127.0.0.1/32, 2001:db8::/32, ::ffff:10.0.0.1")).toEqual([]);
    expect(invalidProxyEntries("10.0.0.0/33, proxy.local, 1.2.3.4/8/1, ::1/129, 256.1.1.1, 1:2:3")).toEqual(["10.0.0.0/33", "proxy.local", "1.2.3.4/8/1", "::1/129", "256.1.1.1", "1:2:3"]);
    const refused = configSchema.safeParse({ STRATA_TRUSTED_PROXIES: "10.0.0.0/8, proxy.local" });
    expect(refused.success).toBe(false);
    expect(JSON.stringify(refused.error?.issues)).toMatch(/IP addresses or CIDRs/);
    expect(configSchema.safeParse({ STRATA_TRUSTED_PROXIES: "10.0.0.0/8" }).success).toBe(true);
  });
});

describe("the served origin behind trusted proxies", () => {
  const PROXIED: OriginSettings = { BETTER_AUTH_URL: undefined, STRATA_TRUSTED_PROXIES: "10.0.0.0/8" };
  const forwarded = { host: "10.1.2.3:3000", "x-forwarded-proto": "https", "x-forwarded-host": "strata.example" };
  const from = (peer: string) => new Request("http://10.1.2.3:3000/", { headers: { ...forwarded, [PEER_HEADER]: peer } });

  it("believes the forwarded headers only when the request's peer is one of the proxies", () => {
    stampPeerAddresses();
    expect(servedOrigin(from("10.9.8.7"), PROXIED)).toBe("https://strata.example");
    // A client that reaches the server directly, past the proxy, is taken at its Host.
    expect(servedOrigin(from("203.0.113.5"), PROXIED)).toBe("http://10.1.2.3:3000");
  });
});
