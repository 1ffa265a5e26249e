"use client";
import { createContext, useContext } from "react";

/**
 * Where a sent file is fetched from: the owner's route, or under a shared link the link's
 * own route (which serves that one conversation's files only).
 */
export const AttachmentUrl = createContext((id: string) => `/api/attachments/${encodeURIComponent(id)}`);

export function useAttachmentUrl(): (id: string) => string {
  return useContext(AttachmentUrl);
}
