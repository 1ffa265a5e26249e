// Code blocks, tables and math in a message scroll sideways when they are wider than it
// (app/globals.css). Chromium and Firefox let the keyboard into such a box, Safari does
// not, and none says what it is, so a box that really scrolls gets a tab stop and a name
// here. Only while it scrolls: a tab stop on every code block of a long conversation would
// cost a keyboard user far more than it gives.
import { useEffect, useRef, type RefObject } from "react";
import { MATH_BOX_CLASS } from "./math";

const REGIONS: [selector: string, name: string][] = [
  ["pre", "Code, scrolls sideways"],
  ["table", "Table, scrolls sideways"],
  [".katex-display", "Formula, scrolls sideways"],
  [`.${MATH_BOX_CLASS}`, "Formula, scrolls sideways"],
];
const SELECTOR = REGIONS.map(([selector]) => selector).join(", ");

/**
 * A group rather than a region: a region with a name is a landmark, and a conversation
 * would list each wide block among the page's landmarks, all by the same name. A table
 * keeps its own role, which is what lets a screen reader move through it by cell.
 */
function mark(region: HTMLElement) {
  const scrolls = region.scrollWidth > region.clientWidth;
  if (scrolls === region.hasAttribute("tabindex")) return;
  // Taking the tab stop from the focused element would drop the focus to the page's start
  // (a phone turned while a code block is read): it goes when the focus leaves.
  if (!scrolls && region === document.activeElement) {
    region.addEventListener("blur", () => mark(region), { once: true });
    return;
  }
  if (scrolls) {
    region.tabIndex = 0;
    region.setAttribute("aria-label", REGIONS.find(([selector]) => region.matches(selector))![1]);
    if (region.tagName !== "TABLE") region.setAttribute("role", "group");
  } else {
    region.removeAttribute("tabindex");
    region.removeAttribute("aria-label");
    region.removeAttribute("role");
  }
}

function watchRegions() {
  const watched = new Set<HTMLElement>();
  // A new region is measured by the observer's first report, which comes after layout and
  // before paint, so a render costs no extra layout.
  const observer = new ResizeObserver((entries) => entries.forEach((entry) => mark(entry.target as HTMLElement)));
  // KaTeX's fonts arrive after the first layout and change a formula's width, not always its box's.
  const remeasure = () => watched.forEach(mark);
  document.fonts.addEventListener("loadingdone", remeasure);
  return {
    update(regions: Iterable<HTMLElement>) {
      const current = new Set(regions);
      for (const region of watched) {
        if (current.has(region)) continue;
        observer.unobserve(region);
        watched.delete(region);
      }
      for (const region of current) {
        if (watched.has(region)) {
          // The text may have grown inside a box of the same size (a line of code while a reply streams).
          mark(region);
        } else {
          watched.add(region);
          observer.observe(region);
        }
      }
    },
    stop() {
      observer.disconnect();
      document.fonts.removeEventListener("loadingdone", remeasure);
      watched.clear();
    },
  };
}

/** Keeps the sideways-scrolling regions of `body` (a rendered Markdown text) reachable by keyboard while they scroll. */
export function useScrollRegions(body: RefObject<HTMLElement | null>): void {
  const watch = useRef<ReturnType<typeof watchRegions> | null>(null);
  // After every render: one can add regions (a code fence streams in, KaTeX arrives) or change their text.
  useEffect(() => {
    const regions = body.current?.querySelectorAll<HTMLElement>(SELECTOR);
    // Most messages have none, and cost no observer.
    if (!regions?.length && !watch.current) return;
    watch.current ??= watchRegions();
    watch.current.update(regions ?? []);
  });
  useEffect(
    () => () => {
      watch.current?.stop();
      watch.current = null;
    },
    [],
  );
}
