"use client";
// The activity panel of the open conversation: its compaction attempts and the
// background work queued or running. Loaded only while the panel is open.
import { create } from "zustand";
import { attemptsAction } from "@/app/actions";
import type { AttemptView, BackgroundWorkView, UndoneView } from "@/lib/views";

type ActivityState = {
  conversationId: string | null;
  open: boolean;
  attempts: AttemptView[] | null;
  /** Compactions undone by their owner ("Undo this compaction"), newest first. */
  undone: UndoneView[];
  /** Background compaction queued or running, shown above the attempts. */
  backgroundWork: BackgroundWorkView[];
  /** Why the activity could not be loaded (shown instead of "Loading…", with a retry). */
  error: string | null;
  /** Another conversation opened: what was shown belongs to the previous one. */
  show: (conversationId: string) => void;
  toggle: () => void;
  refresh: () => Promise<void>;
  /** After anything that may have made attempts: reload them if the panel shows them. */
  refreshIfOpen: () => Promise<void>;
};

export const useActivity = create<ActivityState>()((set, get) => ({
  conversationId: null,
  open: false,
  attempts: null,
  undone: [],
  backgroundWork: [],
  error: null,

  show(conversationId) {
    set({ conversationId, attempts: null, undone: [], backgroundWork: [], error: null });
    void get().refreshIfOpen();
  },

  toggle() {
    const open = !get().open;
    set({ open });
    if (open) void get().refresh();
  },

  async refresh() {
    const conversationId = get().conversationId;
    if (!conversationId) return;
    const result = await attemptsAction(conversationId);
    // The answer of a conversation that has been left since is dropped.
    if (get().conversationId !== conversationId) return;
    if (result.ok) set({ attempts: result.data.attempts, undone: result.data.undone, backgroundWork: result.data.background, error: null });
    else set({ error: result.error.message });
  },

  async refreshIfOpen() {
    if (get().open) await get().refresh();
  },
}));
