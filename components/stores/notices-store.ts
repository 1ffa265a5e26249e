"use client";
// Notices above the composer: what an action in the open conversation wants the user to
// know (a failure, a compaction that was refused, a summary applied). Cleared when
// another conversation opens.
import { create } from "zustand";

/**
 * `unsent`: a message was refused and is still in the box (rate limit, server down); it
 * is over once a later message is stored, and goes then.
 */
export type Notice = { id: number; tone: "error" | "warning" | "info"; text: string; about?: "unsent" };

/** At most this many on screen: a burst of failures must not push the composer away. */
const MAX_NOTICES = 5;

type NoticesState = {
  notices: Notice[];
  notify: (tone: Notice["tone"], text: string, about?: Notice["about"]) => void;
  dismiss: (id: number) => void;
  /** Takes away the notices about something that is over. */
  dismissAbout: (about: NonNullable<Notice["about"]>) => void;
  clear: () => void;
};

let noticeIds = 0;

export const useNotices = create<NoticesState>()((set) => ({
  notices: [],
  notify(tone, text, about) {
    const id = ++noticeIds;
    set((state) => ({ notices: [...state.notices.slice(-(MAX_NOTICES - 1)), { id, tone, text, ...(about ? { about } : {}) }] }));
  },
  dismissAbout(about) {
    set((state) => ({ notices: state.notices.filter((notice) => notice.about !== about) }));
  },
  dismiss(id) {
    set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) }));
  },
  clear() {
    set({ notices: [] });
  },
}));

/** For the stores: a notice from outside React. */
export function notify(tone: Notice["tone"], text: string, about?: Notice["about"]): void {
  useNotices.getState().notify(tone, text, about);
}
