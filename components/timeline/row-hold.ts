"use client";
import { useCallback, useLayoutEffect, useRef } from "react";

/** How long (ms) a row stays held once placed: rows drawn and measured late land well within it. */
const HOLD_MS = 1500;

type Held = { key: string; top: number; until: number };

/**
 * Keeps one row where the reader saw it while the rows around it are drawn and measured,
 * as after a page is put above the view. The first placement works from estimated row
 * heights, so the rows drawn next (at their real heights) would show the row elsewhere for
 * a few frames, until the virtualizer has measured them. After every commit, before the
 * browser paints, the view is moved by however far the row drifted, read from the page.
 *
 * The hold ends at the reader's next wheel, touch, key or pointer press, or after HOLD_MS.
 * Rows carry `data-key` for it.
 */
export function useRowHold(scroller: () => HTMLDivElement | null) {
  const held = useRef<Held | null>(null);

  const release = useCallback(() => {
    held.current = null;
  }, []);

  /** Holds the row `key` with its top `top` px below the view's top. */
  const hold = useCallback((key: string, top: number) => {
    held.current = { key, top, until: performance.now() + HOLD_MS };
  }, []);

  // Every commit: rows are drawn or resized only by one.
  useLayoutEffect(() => {
    const place = held.current;
    const element = scroller();
    if (!place || !element) return;
    if (performance.now() > place.until) return release();
    const row = element.querySelector(`[data-key="${CSS.escape(place.key)}"]`);
    if (!row) return;
    const drift = row.getBoundingClientRect().top - element.getBoundingClientRect().top - place.top;
    if (Math.abs(drift) < 1) return;
    element.scrollTop += drift;
    // The virtualizer reads the new offset now, and draws the rows for it in this same paint.
    element.dispatchEvent(new Event("scroll"));
  });

  return { hold, release };
}
