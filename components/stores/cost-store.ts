"use client";
// What the open conversation cost, reloaded after each turn and compaction (the chat
// header and the compaction blocks read it). A GET rather than a server action: actions
// run one at a time, and a send must not wait behind this.
import { create } from "zustand";
import { conversationCostSchema, type ConversationCostView } from "@/lib/pricing";

type CostState = {
  conversationId: string | null;
  cost: ConversationCostView | null;
  load: (conversationId: string) => Promise<void>;
};

async function fetchCost(conversationId: string): Promise<ConversationCostView | null> {
  try {
    const response = await fetch(`/api/conversations/${encodeURIComponent(conversationId)}/cost`, { cache: "no-store" });
    if (!response.ok) return null;
    const parsed = conversationCostSchema.safeParse(((await response.json()) as { cost?: unknown }).cost);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const useCost = create<CostState>()((set, get) => ({
  conversationId: null,
  cost: null,

  async load(conversationId) {
    if (get().conversationId !== conversationId) set({ conversationId, cost: null });
    const cost = await fetchCost(conversationId);
    // The answer for a conversation left since is dropped; a failed load keeps what was shown.
    if (get().conversationId !== conversationId || !cost) return;
    set({ cost });
  },
}));
