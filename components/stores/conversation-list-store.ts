"use client";
// The sidebar's conversation list: seeded by the server render, refreshed after
// anything that changes titles, order or counts.
import { create } from "zustand";
import { listConversationsAction } from "@/app/actions";
import type { ConversationSummary } from "@/lib/views";

type ConversationListState = {
  conversations: ConversationSummary[];
  seeded: boolean;
  seed: (conversations: ConversationSummary[]) => void;
  refresh: () => Promise<void>;
  rename: (id: string, title: string) => void;
  remove: (id: string) => void;
};

export const useConversationList = create<ConversationListState>()((set) => ({
  conversations: [],
  seeded: false,
  seed(conversations) {
    set({ conversations, seeded: true });
  },
  async refresh() {
    const result = await listConversationsAction();
    if (result.ok) set({ conversations: result.data, seeded: true });
  },
  rename(id, title) {
    set((state) => ({ conversations: state.conversations.map((c) => (c.id === id ? { ...c, title } : c)) }));
  },
  remove(id) {
    set((state) => ({ conversations: state.conversations.filter((c) => c.id !== id) }));
  },
}));
