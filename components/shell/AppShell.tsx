"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useReveal } from "@/components/stores/reveal-store";
import { MenuIcon, LayersIcon } from "../ui/icons";

const NARROW = "(max-width: 767.98px)";

function subscribeNarrow(onChange: () => void) {
  const query = window.matchMedia(NARROW);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True below 768 px, where the sidebar is a drawer. */
function useNarrow(): boolean {
  return useSyncExternalStore(subscribeNarrow, () => window.matchMedia(NARROW).matches, () => false);
}

/**
 * The signed-in frame: the sidebar beside the page from 768 px up, a drawer below
 * (opened from the top bar; closed by Escape, the backdrop or navigating).
 */
export function AppShell({ sidebar, children }: { sidebar: React.ReactNode; children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const narrow = useNarrow();
  const pathname = usePathname();
  const toggle = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);

  // Navigating, or opening a search hit (maybe in this same conversation), closes the
  // drawer (render-time reset: no effect cascade).
  const revealNonce = useReveal((state) => state.request?.nonce ?? 0);
  const [shown, setShown] = useState({ pathname, revealNonce });
  if (shown.pathname !== pathname || (revealNonce !== 0 && shown.revealNonce !== revealNonce)) {
    setShown({ pathname, revealNonce });
    setOpen(false);
  }

  // A drawer left open on a phone is closed when the window widens (the sidebar is in
  // place then): narrowed again, the conversation must not come back under a backdrop.
  if (!narrow && open) setOpen(false);
  // The drawer's button is hidden from 768 px up: focus it held moves to the page. The
  // browser may have dropped it to <body> already when the button was hidden.
  const wasNarrow = useRef(narrow);
  useEffect(() => {
    const widened = wasNarrow.current && !narrow;
    wasNarrow.current = narrow;
    const held = document.activeElement;
    if (widened && (held === toggle.current || held === document.body)) document.getElementById("main")?.focus();
  }, [narrow]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  const drawerHidden = narrow && !open;
  // On a phone a conversation's own header is the top bar: the drawer's button sits at its
  // left instead of taking a bar of its own above it.
  const inConversation = pathname.startsWith("/c/");
  return (
    <>
      {narrow && open ? <div className="fixed inset-0 z-30 bg-black/40" data-testid="drawer-backdrop" onClick={close} aria-hidden="true" /> : null}
      <div
        id="app-drawer"
        data-testid="drawer"
        data-open={narrow ? open : undefined}
        inert={drawerHidden}
        className={`fixed inset-y-0 left-0 z-40 flex w-72 max-w-[85vw] transition-transform md:static md:z-auto md:w-64 md:max-w-none md:shrink-0 md:translate-x-0 md:transition-none ${
          open ? "translate-x-0" : "-translate-x-full"
        }`}
      >
        {sidebar}
      </div>
      <main id="main" tabIndex={-1} className="relative flex min-w-0 flex-1 flex-col outline-none">
        <div
          className={
            inConversation
              ? "absolute top-1.5 left-1.5 z-20 md:hidden"
              : "flex h-11 shrink-0 items-center gap-2 border-b border-neutral-200 px-2 md:hidden dark:border-neutral-800"
          }
        >
          <button
            ref={toggle}
            type="button"
            data-testid="drawer-toggle"
            aria-label="Conversations"
            aria-expanded={open}
            aria-controls="app-drawer"
            onClick={() => setOpen((value) => !value)}
            className="inline-flex size-9 items-center justify-center rounded-md text-neutral-700 hover:bg-neutral-100 dark:text-neutral-300 dark:hover:bg-neutral-800"
          >
            <MenuIcon className="size-5" />
          </button>
          {inConversation ? null : (
            <Link href="/" className="flex items-center gap-2 text-sm font-semibold tracking-tight">
              <LayersIcon className="size-4 text-sky-600 dark:text-sky-400" />
              Strata
            </Link>
          )}
        </div>
        {children}
      </main>
    </>
  );
}
