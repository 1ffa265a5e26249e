"use client";
import { createContext, useContext } from "react";

/**
 * True under a shared link's page: the timeline shows what the owner sees, without any
 * control that changes the conversation (edit, regenerate, pin, versions, continue,
 * retry, new conversation from a summary) or shows the owner's costs.
 */
export const ReadOnlyTimeline = createContext(false);

export function useReadOnly(): boolean {
  return useContext(ReadOnlyTimeline);
}
