import type { SearchHit } from "@/lib/views";

const ROLES: Record<string, string> = { user: "You", assistant: "Assistant", tool: "Tool", system: "System" };

/** Where a hit sits, in words: "You #12 · compressed" or "L2 summary #1–24". */
export function hitLabel(hit: SearchHit): string {
  if (hit.kind === "summary") return `L${hit.level} summary #${hit.fromSeq}–${hit.toSeq}`;
  return `${ROLES[hit.role] ?? hit.role} #${hit.seq}${hit.compressed ? " · compressed" : ""}`;
}

export function hitHref(hit: SearchHit): string {
  return `/c/${hit.conversationId}#${hit.anchor}`;
}
