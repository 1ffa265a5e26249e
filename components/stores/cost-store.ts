"use client";
// What the open conversation cost, reloaded after each turn and compaction (the chat
// header and the compaction blocks read it).
import { create } from "zustand";
import { conversationCostAction } from "@/app/actions";
import type { ConversationCostView } from "@/lib/pricing";

type CostState = {
  conversationId: string | null;
  cost: ConversationCostView | null;
  load: (conversationId: string) => Promise<void>;
};

export const useCost = create<CostState>()((set, get) => ({
  conversationId: null,
  cost: null,

  async load(conversationId) {
    if (get().conversationId !== conversationId) set({ conversationId, cost: null });
    const result = await conversationCostAction(conversationId);
    // The answer for a conversation left since is dropped; a failed load keeps what was shown.
    if (get().conversationId !== conversationId || !result.ok) return;
    set({ cost: result.data });
  },
}));
