"use client";
import type { SearchHit } from "@/lib/views";
import { hitHref, hitLabel } from "./hit-label";
import { useOpenHit } from "./open-hit";
import { Snippet } from "./Snippet";

/** Hits across conversations (the sidebar's search). */
export function SearchResults({ hits }: { hits: SearchHit[] }) {
  const openHit = useOpenHit();
  return (
    <ul className="space-y-1" data-testid="search-results" aria-label="Search results">
      {hits.map((hit) => (
        <li key={`${hit.conversationId}:${hit.anchor}`}>
          <a
            href={hitHref(hit)}
            data-testid="search-hit"
            data-anchor={hit.anchor}
            data-kind={hit.kind}
            onClick={(event) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              openHit(hit);
            }}
            className="block rounded-md px-2 py-1.5 text-[12px] hover:bg-neutral-200/60 focus-visible:outline-2 focus-visible:outline-sky-500 dark:hover:bg-neutral-800"
          >
            <span className="flex items-baseline gap-1.5">
              <span className="truncate font-medium text-neutral-800 dark:text-neutral-200">{hit.conversationTitle}</span>
              {hit.conversationArchived ? (
                <span data-testid="hit-archived" className="shrink-0 rounded bg-neutral-200 px-1 text-[10px] text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300">
                  archived
                </span>
              ) : null}
              <span className="shrink-0 text-[10.5px] text-neutral-500">{hitLabel(hit)}</span>
            </span>
            <span className="line-clamp-3 break-words text-neutral-600 dark:text-neutral-400">
              <Snippet parts={hit.snippet} />
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
