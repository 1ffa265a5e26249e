// STRATA_TRUSTED_PROXIES: the addresses whose X-Forwarded-* headers Strata believes.
// One reading of the list, used by the config check (an entry that is not an address
// or a CIDR stops the start) and by the origin rule (is this request's TCP peer one of
// them?). Node's BlockList does the matching, IPv4 and IPv6 alike.
import { BlockList, isIP } from "node:net";

type Entry = { address: string; prefix: number; family: "ipv4" | "ipv6" };

function entryOf(text: string): Entry | null {
  const [address = "", prefixText, ...rest] = text.split("/");
  const version = isIP(address);
  if (!version || rest.length > 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

const entriesOf = (list: string) =>
  list
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** The entries that are neither an address nor a CIDR ("10.0.0.0/8", "::1", "192.168.1.7"). */
export function invalidProxyEntries(list: string): string[] {
  return entriesOf(list).filter((item) => entryOf(item) === null);
}

const lists = new Map<string, BlockList>();

function blockList(list: string): BlockList {
  let blocks = lists.get(list);
  if (!blocks) {
    blocks = new BlockList();
    for (const item of entriesOf(list)) {
      const entry = entryOf(item);
      if (entry) blocks.addSubnet(entry.address, entry.prefix, entry.family);
    }
    lists.clear();
    lists.set(list, blocks);
  }
  return blocks;
}

/** Whether `peer` (a socket's remote address, IPv4-mapped IPv6 included) is in the list. */
export function isTrustedProxy(peer: string, list: string): boolean {
  const address = peer.startsWith("::ffff:") && isIP(peer.slice(7)) === 4 ? peer.slice(7) : peer;
  const version = isIP(address);
  if (!version) return false;
  return blockList(list).check(address, version === 4 ? "ipv4" : "ipv6");
}
