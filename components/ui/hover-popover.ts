// A popover that hovering shows and clicking pins. Without the distinction, the click
// that follows a hover (the pointer is already there; on touch screens the tap sends
// both) toggled the popover shut the moment it was wanted.
import { useState, type FocusEvent, type KeyboardEvent } from "react";

export type PopoverState = "closed" | "hover" | "pinned";
export type PopoverEvent = "enter" | "leave" | "click" | "dismiss";

export function nextPopoverState(state: PopoverState, event: PopoverEvent): PopoverState {
  switch (event) {
    case "enter":
      return state === "closed" ? "hover" : state;
    case "leave":
      return state === "hover" ? "closed" : state;
    case "click":
      return state === "pinned" ? "closed" : "pinned";
    case "dismiss":
      return "closed";
  }
}

/** Whether the popover is open, and the handler its trigger's events go to. */
export function useHoverPopover(): { open: boolean; send: (event: PopoverEvent) => void } {
  const [state, setState] = useState<PopoverState>("closed");
  return { open: state !== "closed", send: (event) => setState((current) => nextPopoverState(current, event)) };
}

/** What the popover's trigger button needs: its state for assistive technology, and the events that open and pin it. */
export function popoverTriggerProps(open: boolean, send: (event: PopoverEvent) => void, detailsId: string) {
  return {
    "aria-expanded": open,
    "aria-describedby": open ? detailsId : undefined,
    onClick: () => send("click"),
  };
}

/**
 * What the element holding the trigger and the popover needs: hovering it shows the
 * popover, focus leaving it (a tap or a click anywhere else) and Escape close it. Closing
 * on the trigger's own blur shut the popover on the first tap inside it, so a phone user
 * could neither scroll its details nor select a figure; the popover itself takes focus
 * (`popoverProps`), so a tap there keeps focus inside.
 */
export function popoverContainerProps(send: (event: PopoverEvent) => void) {
  return {
    onMouseEnter: () => send("enter"),
    onMouseLeave: () => send("leave"),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      const next = event.relatedTarget;
      if (!(next instanceof Node) || !event.currentTarget.contains(next)) send("dismiss");
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === "Escape") send("dismiss");
    },
  };
}

/** The popover: focusable by a tap or a click, not by Tab. */
export const popoverProps = { tabIndex: -1 } as const;
