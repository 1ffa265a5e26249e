"use client";
import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { SearchHit } from "@/lib/views";
import { readOrThrow } from "../queries/fetch-read";
import { keys } from "../queries/keys";

export type SearchState = { hits: SearchHit[]; error: string | null; searching: boolean; query: string };

const IDLE: SearchState = { hits: [], error: null, searching: false, query: "" };
const DEBOUNCE_MS = 250;

/** The text once it has stayed the same for `ms`. */
function useSettled(text: string, ms: number): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), ms);
    return () => clearTimeout(timer);
  }, [text, ms]);
  return settled;
}

/**
 * Searches as the user types, once the typing pauses. Each query is its own cache
 * entry, so a newer query never shows an older answer, and going back to an earlier
 * query within the session answers from the cache while it reads again.
 */
export function useSearch(query: string, conversationId?: string): SearchState {
  const trimmed = query.trim();
  const settled = useSettled(trimmed, DEBOUNCE_MS);
  const result = useQuery({
    queryKey: keys.search(settled, conversationId ?? null),
    queryFn: () => readOrThrow("search", "", { q: settled, ...(conversationId ? { conversationId } : {}) }),
    enabled: settled !== "",
    // The old hits stay on screen while the next query reads (shown as searching).
    placeholderData: keepPreviousData,
    // Search reads a store that changes with every turn: never answer from a stale entry without reading.
    staleTime: 0,
    retry: false,
  });
  if (!trimmed) return IDLE;
  const searching = settled !== trimmed || result.isFetching;
  if (result.isError) return { hits: [], error: result.error.message, searching, query: settled };
  return { hits: result.data ?? [], error: null, searching, query: result.isPlaceholderData ? "" : settled };
}
