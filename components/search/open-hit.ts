"use client";
import { useRouter } from "next/navigation";
import { useCallback } from "react";
import { useReveal } from "@/components/stores/reveal-store";
import type { SearchHit } from "@/lib/views";
import { hitHref } from "./hit-label";

/** Goes to a hit: the URL carries its anchor (so it can be shared and reloaded), the tree opens to it. */
export function useOpenHit(): (hit: SearchHit) => void {
  const router = useRouter();
  return useCallback(
    (hit: SearchHit) => {
      const href = hitHref(hit);
      useReveal.getState().requestReveal(hit.conversationId, hit.anchor);
      if (window.location.pathname === `/c/${hit.conversationId}`) window.history.replaceState(window.history.state, "", href);
      else router.push(href, { scroll: false });
    },
    [router],
  );
}
