"use client";
// The files on the open conversation's sent messages, by message: what the timeline shows
// as chips. Loaded when a conversation opens and again whenever a turn settles.
import { create } from "zustand";
import type { AttachmentView } from "@/lib/db/attachments";

type AttachmentState = {
  conversationId: string | null;
  byMessage: Record<string, AttachmentView[]>;
  /** `from`: where the list is read (a shared link reads its own route). */
  load: (conversationId: string, from?: string) => Promise<void>;
};

let request = 0;

export const useAttachments = create<AttachmentState>()((set, get) => ({
  conversationId: null,
  byMessage: {},
  async load(conversationId, from = `/api/conversations/${encodeURIComponent(conversationId)}/attachments`) {
    const mine = ++request;
    if (get().conversationId !== conversationId) set({ conversationId, byMessage: {} });
    try {
      const response = await fetch(from, { cache: "no-store" });
      if (!response.ok || mine !== request) return;
      const { attachments } = (await response.json()) as { attachments: AttachmentView[] };
      const byMessage: Record<string, AttachmentView[]> = {};
      for (const attachment of attachments) {
        if (attachment.messageId) (byMessage[attachment.messageId] ??= []).push(attachment);
      }
      set({ byMessage });
    } catch {
      // The chips are an extra: the message itself already shows (and carries) the text.
    }
  },
}));
