"use client";
// Whether the activity panel is open. Its data (attempts, undone compactions, background
// work) is a query (components/queries/conversation-data.ts), loaded only while the panel shows.
import { create } from "zustand";

type ActivityState = {
  open: boolean;
  toggle: () => void;
};

export const useActivity = create<ActivityState>()((set, get) => ({
  open: false,
  toggle() {
    set({ open: !get().open });
  },
}));
