// Reading STRATA_TRUSTED_PROXIES ("10.0.0.0/8, ::1, 192.168.1.7"): plain code, without
// Node's modules, because lib/config.ts checks the list and client code reaches
// lib/config.ts through the shared input schemas.

export type ProxyEntry = { address: string; prefix: number; family: "ipv4" | "ipv6" };

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** 4 or 6 for an IP address, 0 for anything else (URL parsing checks IPv6's many spellings). */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (IPV4.test(text)) return 4;
  if (!text.includes(":") || /[^0-9a-f:.]/i.test(text)) return 0;
  try {
    new URL(`http://[${text}]/`);
    return 6;
  } catch {
    return 0;
  }
}

export function proxyEntry(text: string): ProxyEntry | null {
  const [address = "", prefixText, ...rest] = text.split("/");
  const version = ipVersion(address);
  if (!version || rest.length > 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

export const proxyListItems = (list: string) =>
  list
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** The entries that are neither an address nor a CIDR. */
export function invalidProxyEntries(list: string): string[] {
  return proxyListItems(list).filter((item) => proxyEntry(item) === null);
}
