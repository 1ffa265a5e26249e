"use client";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";

/** Closes a popover, menu or drawer on Escape and on a pointer press outside `ref`. */
export function useDismiss(open: boolean, close: () => void, ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    const onPointer = (event: PointerEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) close();
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("pointerdown", onPointer);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("pointerdown", onPointer);
    };
  }, [open, close, ref]);
}

/**
 * A popover or menu that opens from a button: whether it is open, the ref for the element
 * holding button and panel (presses outside it close the panel, as Escape does), and the
 * props of its toggle button.
 */
export function usePopover() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, ref);
  const toggleProps = { type: "button", "aria-expanded": open, onClick: () => setOpen((value) => !value) } as const;
  return { open, close, ref, toggleProps };
}
