// STRATA_TRUSTED_PROXIES: is this request's TCP peer one of the proxies whose
// X-Forwarded-* headers Strata believes? Node's BlockList does the matching, IPv4 and
// IPv6 alike; ./proxy-list.ts reads the list (and lib/config.ts checks it with it).
import { BlockList } from "node:net";
import { ipVersion, proxyEntry, proxyListItems } from "./proxy-list";

const lists = new Map<string, BlockList>();

function blockList(list: string): BlockList {
  let blocks = lists.get(list);
  if (!blocks) {
    blocks = new BlockList();
    for (const item of proxyListItems(list)) {
      const entry = proxyEntry(item);
      if (entry) blocks.addSubnet(entry.address, entry.prefix, entry.family);
    }
    lists.clear();
    lists.set(list, blocks);
  }
  return blocks;
}

/** Whether `peer` (a socket's remote address, IPv4-mapped IPv6 included) is in the list. */
export function isTrustedProxy(peer: string, list: string): boolean {
  const address = peer.startsWith("::ffff:") && ipVersion(peer.slice(7)) === 4 ? peer.slice(7) : peer;
  const version = ipVersion(address);
  if (!version) return false;
  return blockList(list).check(address, version === 4 ? "ipv4" : "ipv6");
}
