"use client";
import { MAX_SEARCH_CHARS } from "@/lib/chat/search-limits";
import { useEffect, useRef } from "react";
import { SearchResults } from "../search/SearchResults";
import { useSearch } from "../search/use-search";

/** The search box over all conversations; while it holds a query its hits replace the list. */
export function SidebarSearch({ query, onQuery }: { query: string; onQuery: (query: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const { hits, error, searching, query: answered } = useSearch(query);

  // "/" focuses the search from anywhere outside a text field.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== "/" || event.metaKey || event.ctrlKey || event.altKey || target?.closest("input, textarea, select, [contenteditable=true]")) return;
      event.preventDefault();
      input.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div role="search" className="border-b border-neutral-200 p-2 dark:border-neutral-800">
      <input
        ref={input}
        type="search"
        data-testid="sidebar-search"
        maxLength={MAX_SEARCH_CHARS}
        aria-label="Search all conversations"
        placeholder="Search everything ( / )"
        value={query}
        onChange={(event) => onQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape" && query) {
            event.preventDefault();
            event.stopPropagation();
            onQuery("");
          }
        }}
        className="h-7 w-full rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950"
      />
      {query.trim() ? (
        <div className="mt-1.5" aria-live="polite">
          {error ? (
            <p role="alert" data-testid="search-error" className="px-1 text-[12px] text-red-700 dark:text-red-400">
              {error}
            </p>
          ) : searching && answered !== query.trim() ? (
            <p className="px-1 text-[12px] text-neutral-500">Searching…</p>
          ) : hits.length === 0 ? (
            <p className="px-1 text-[12px] text-neutral-500" data-testid="search-empty">
              Nothing found.
            </p>
          ) : null}
        </div>
      ) : null}
      {query.trim() && hits.length > 0 ? <SearchResults hits={hits} /> : null}
    </div>
  );
}
