"use client";
// Notices above the composer: what an action in the open conversation wants the user to
// know (a failure, a compaction that was refused, a summary applied). Cleared when
// another conversation opens.
import { create } from "zustand";

export type Notice = { id: number; tone: "error" | "warning" | "info"; text: string };

/** At most this many on screen: a burst of failures must not push the composer away. */
const MAX_NOTICES = 5;

type NoticesState = {
  notices: Notice[];
  notify: (tone: Notice["tone"], text: string) => void;
  dismiss: (id: number) => void;
  clear: () => void;
};

let noticeIds = 0;

export const useNotices = create<NoticesState>()((set) => ({
  notices: [],
  notify(tone, text) {
    const id = ++noticeIds;
    set((state) => ({ notices: [...state.notices.slice(-(MAX_NOTICES - 1)), { id, tone, text }] }));
  },
  dismiss(id) {
    set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) }));
  },
  clear() {
    set({ notices: [] });
  },
}));

/** For the stores: a notice from outside React. */
export function notify(tone: Notice["tone"], text: string): void {
  useNotices.getState().notify(tone, text);
}
