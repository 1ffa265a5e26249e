"use client";
import { useEffect, useRef } from "react";
import { Button } from "../ui/Button";

/** How far above the view (px) the row starts the load: the page is there before the reader reaches the top. */
const AHEAD = 600;

/**
 * The first row while earlier history is on the server: it loads the older page when it
 * scrolls into view (with `AHEAD` px to spare), once the reader has scrolled up — never
 * on opening, when the view is placed at the bottom. The button stays for the keyboard
 * and for a reader who reached the top before the page arrived.
 */
export function EarlierRow({
  root,
  readerScrolledUp,
  loading,
  load,
}: {
  root: () => HTMLElement | null;
  readerScrolledUp: () => boolean;
  loading: boolean;
  load: () => void;
}) {
  const row = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = row.current;
    const scroller = root();
    if (!element || !scroller || loading) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && readerScrolledUp()) load();
      },
      { root: scroller, rootMargin: `${AHEAD}px 0px 0px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
    // A new observer after each load: still in view then (a short page), it loads the next one.
  }, [root, readerScrolledUp, loading, load]);

  return (
    <div ref={row} data-testid="earlier-sentinel" className="flex justify-center py-2">
      <Button size="xs" data-testid="load-earlier" disabled={loading} onClick={load}>
        {loading ? "Loading…" : "Load earlier messages"}
      </Button>
    </div>
  );
}
