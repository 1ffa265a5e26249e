"use client";
import { MAX_SEARCH_CHARS } from "@/lib/chat/search-limits";
import { useEffect, useRef, useState } from "react";
import { Button } from "../ui/Button";
import { ChevronIcon, CloseIcon } from "../ui/icons";
import { hitLabel } from "./hit-label";
import { useOpenHit } from "./open-hit";
import { Snippet } from "./Snippet";
import { useSearch } from "./use-search";

/**
 * Find in this conversation (Ctrl/Cmd+F), compressed originals and summaries included:
 * Enter / Shift+Enter step through the hits, each opened in the tree; Escape closes.
 */
export function FindBar({ conversationId }: { conversationId: string }) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [index, setIndex] = useState(0);
  // Whether the current query's hit at `index` was opened yet: the first Enter opens it.
  const [opened, setOpened] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const { hits, error, searching, query: answered } = useSearch(open ? query : "", conversationId);
  const openHit = useOpenHit();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === "f") {
        event.preventDefault();
        setOpen(true);
        requestAnimationFrame(() => input.current?.select());
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  function go(to: number) {
    if (hits.length === 0) return;
    const next = (to + hits.length) % hits.length;
    setIndex(next);
    setOpened(true);
    openHit(hits[next]!);
  }

  if (!open) {
    return (
      <button type="button" data-testid="find-open" className="sr-only focus:not-sr-only" onClick={() => setOpen(true)}>
        Find in conversation
      </button>
    );
  }
  const current = hits[Math.min(index, hits.length - 1)];
  return (
    <div
      role="search"
      data-testid="find-bar"
      className="flex flex-wrap items-center gap-2 border-b border-neutral-200 bg-neutral-50 px-3 py-1.5 text-[12px] dark:border-neutral-800 dark:bg-neutral-900"
    >
      <input
        ref={input}
        autoFocus
        type="search"
        data-testid="find-input"
        maxLength={MAX_SEARCH_CHARS}
        aria-label="Find in this conversation"
        placeholder="Find in this conversation, compressed messages included"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setIndex(0);
          setOpened(false);
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            setOpen(false);
          } else if (event.key === "Enter") {
            event.preventDefault();
            if (answered !== query.trim()) return;
            go(opened ? index + (event.shiftKey ? -1 : 1) : index);
          }
        }}
        className="h-7 min-w-0 flex-1 rounded-md border border-neutral-300 bg-white px-2 dark:border-neutral-700 dark:bg-neutral-950"
      />
      <span data-testid="find-count" aria-live="polite" className="tabular-nums text-neutral-500">
        {searching ? "Searching…" : error ? "" : query.trim() ? `${hits.length ? index + 1 : 0} of ${hits.length}` : ""}
      </span>
      <Button size="xs" variant="ghost" aria-label="Previous match" disabled={hits.length === 0} onClick={() => go(index - 1)}>
        <ChevronIcon className="size-3 -rotate-90" />
      </Button>
      <Button size="xs" variant="ghost" aria-label="Next match" data-testid="find-next" disabled={hits.length === 0} onClick={() => go(index + 1)}>
        <ChevronIcon className="size-3 rotate-90" />
      </Button>
      <Button size="xs" variant="ghost" aria-label="Close find" data-testid="find-close" onClick={() => setOpen(false)}>
        <CloseIcon className="size-3" />
      </Button>
      {error ? (
        <p role="alert" className="basis-full text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : current ? (
        <p className="basis-full truncate text-neutral-600 dark:text-neutral-400" data-testid="find-current">
          <span className="mr-1.5 text-[10.5px] text-neutral-500">{hitLabel(current)}</span>
          <Snippet parts={current.snippet} />
        </p>
      ) : null}
    </div>
  );
}
