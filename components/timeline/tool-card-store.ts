"use client";
// Which tool cards (and which long texts in them) are open. Kept outside the cards: the
// timeline is virtualized, so a card scrolled away is unmounted, and must come back as
// the reader left it (and at the height it was measured at).
import { create } from "zustand";

type ToolCardState = {
  open: Record<string, true>;
  toggle: (key: string) => void;
};

export const useToolCards = create<ToolCardState>()((set) => ({
  open: {},
  toggle(key) {
    set((state) => {
      const open = { ...state.open };
      if (open[key]) delete open[key];
      else open[key] = true;
      return { open };
    });
  },
}));

/** Whether `key` is open, and a function that flips it. */
export function useOpen(key: string): [boolean, () => void] {
  const open = useToolCards((state) => state.open[key] === true);
  const toggle = useToolCards((state) => state.toggle);
  return [open, () => toggle(key)];
}
