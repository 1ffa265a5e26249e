"use client";
// Pinned originals that top-level compactions cover: the timeline shows them beside
// the block (the model keeps them in view there), so they do not vanish from the
// collapsed tree. Loaded per conversation, again whenever the top-level blocks change.
import { create } from "zustand";
import { timelineReads } from "@/components/timeline/timeline-reads";
import type { MessageView } from "@/lib/views";

type PinnedState = {
  conversationId: string | null;
  messages: MessageView[];
  error: string | null;
  load: (conversationId: string) => Promise<void>;
};

let request = 0;

export const usePinned = create<PinnedState>()((set, get) => ({
  conversationId: null,
  messages: [],
  error: null,
  async load(conversationId) {
    const mine = ++request;
    if (get().conversationId !== conversationId) set({ conversationId, messages: [], error: null });
    const result = await timelineReads().coveredPinned(conversationId);
    // A later load (another conversation, a newer tree) wins.
    if (mine !== request) return;
    set(result.ok ? { messages: result.data, error: null } : { error: result.error.message });
  },
}));

/** A pin set or cleared anywhere: unpinning drops it at once; a new pin is read again (it may sit under a block). */
export function pinChanged(messageId: string, pinned: boolean): void {
  const state = usePinned.getState();
  if (!pinned) usePinned.setState({ messages: state.messages.filter((m) => m.id !== messageId) });
  else if (state.conversationId) void state.load(state.conversationId);
}

/** Reads the pinned strips again if this conversation is the one shown. */
export function reloadPinned(conversationId: string): void {
  const state = usePinned.getState();
  if (state.conversationId === conversationId) void state.load(conversationId);
}
