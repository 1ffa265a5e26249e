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
  /** Texts the user dismissed in the open conversation: a turn that says the same again is not shown. */
  dismissed: ReadonlySet<string>;
  notify: (tone: Notice["tone"], text: string, about?: Notice["about"]) => void;
  dismiss: (id: number) => void;
  /** Takes away the notices about something that is over. */
  dismissAbout: (about: NonNullable<Notice["about"]>) => void;
  clear: () => void;
};

let noticeIds = 0;

export const useNotices = create<NoticesState>()((set) => ({
  notices: [],
  dismissed: new Set(),
  notify(tone, text, about) {
    const id = ++noticeIds;
    // A notice every turn repeats (tools left out for lack of room) is on screen once, and not again once dismissed.
    set((state) => {
      if (state.dismissed.has(text) || state.notices.some((notice) => notice.text === text)) return state;
      // One message is in the box: a newer refusal of it ("try again in 35 s") replaces the older ones.
      const kept = about ? state.notices.filter((notice) => notice.about !== about) : state.notices;
      return { notices: [...kept.slice(-(MAX_NOTICES - 1)), { id, tone, text, ...(about ? { about } : {}) }] };
    });
  },
  dismissAbout(about) {
    set((state) => ({ notices: state.notices.filter((notice) => notice.about !== about) }));
  },
  dismiss(id) {
    set((state) => {
      const gone = state.notices.find((notice) => notice.id === id);
      return {
        notices: state.notices.filter((notice) => notice.id !== id),
        dismissed: gone ? new Set([...state.dismissed, gone.text]) : state.dismissed,
      };
    });
  },
  clear() {
    set({ notices: [], dismissed: new Set() });
  },
}));

/** For the stores: a notice from outside React. */
export function notify(tone: Notice["tone"], text: string, about?: Notice["about"]): void {
  useNotices.getState().notify(tone, text, about);
}
