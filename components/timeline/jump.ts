"use client";
// "Go to #n" (the toolbar's field, a pinned card): opens the path to the message in
// one step and marks it; the URL carries `#m-n` so the place can be shared and reloaded.
import { revealAnchorOutcome, type RevealOutcome } from "@/components/stores/reveal-store";

/** Reads "12", "#12" or " # 12 " as a message number; null for anything else. */
export function parseMessageNumber(text: string): number | null {
  const match = /^\s*#?\s*(\d{1,9})\s*$/.exec(text);
  if (!match) return null;
  const seq = Number(match[1]);
  return seq >= 1 ? seq : null;
}

export async function jumpToMessage(seq: number): Promise<RevealOutcome> {
  const anchor = `m-${seq}`;
  window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}#${anchor}`);
  return revealAnchorOutcome(anchor);
}
