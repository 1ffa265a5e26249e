"use client";
import { useEffect, useState } from "react";
import { searchAction } from "@/app/actions";
import type { SearchHit } from "@/lib/views";

export type SearchState = { hits: SearchHit[]; error: string | null; searching: boolean; query: string };

const IDLE: SearchState = { hits: [], error: null, searching: false, query: "" };
const DEBOUNCE_MS = 250;

/** Searches as the user types (debounced); a newer query discards an older answer. */
export function useSearch(query: string, conversationId?: string): SearchState {
  const [state, setState] = useState<SearchState>(IDLE);
  const trimmed = query.trim();
  useEffect(() => {
    if (!trimmed) return;
    let current = true;
    const timer = setTimeout(async () => {
      setState((before) => ({ ...before, searching: true }));
      const result = await searchAction({ q: trimmed, ...(conversationId ? { conversationId } : {}) });
      if (!current) return;
      setState(
        result.ok
          ? { hits: result.data, error: null, searching: false, query: trimmed }
          : { hits: [], error: result.error.message, searching: false, query: trimmed },
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [trimmed, conversationId]);
  return trimmed ? state : IDLE;
}
