"use client";
// What an opened compaction replaced, page by page (GET .../children, paged forward by
// `afterSeq`), as one infinite query per compaction. What a block replaced does not
// change while it is shown (an undo or a rewind replaces the block itself), so a page
// once read is served from the cache until the tab forgets it. The timeline renders
// from the hook; the reveal walk (components/stores/reveal-store.ts) pages through the
// same cache from outside React.
import { useCallback, useMemo } from "react";
import { InfiniteQueryObserver, infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from "@tanstack/react-query";
import { timelineReads } from "@/components/timeline/timeline-reads";
import type { TimelineItem } from "@/lib/views";
import { keys } from "./keys";
import { queryClient } from "./query-client";

export const CHILDREN_PAGE_SIZE = 50;

type ChildrenPage = { items: TimelineItem[]; nextAfterSeq: number | null };
type ChildrenData = InfiniteData<ChildrenPage, number | null>;

function childrenQuery(compactionId: string) {
  return infiniteQueryOptions({
    queryKey: keys.children(compactionId),
    queryFn: async ({ pageParam }): Promise<ChildrenPage> => {
      const result = await timelineReads().children({ compactionId, limit: CHILDREN_PAGE_SIZE, ...(pageParam != null ? { afterSeq: pageParam } : {}) });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    initialPageParam: null as number | null,
    // null: the last page.
    getNextPageParam: (last: ChildrenPage) => last.nextAfterSeq,
    // A failed page says so with a Try again; no silent second request.
    retry: false,
    // Kept while the tab lives, like the open flags: a block scrolled out of the
    // virtualized timeline unmounts, and must come back with every page it had.
    gcTime: Infinity,
  });
}

const flatten = (data: InfiniteData<ChildrenPage, unknown> | undefined) => data?.pages.flatMap((page) => page.items);

export type LoadedChildren = {
  /** The pages read so far, in order. */
  items: TimelineItem[];
  /** True once the first page arrived. */
  loaded: boolean;
  loading: boolean;
  error: string | null;
  hasMore: boolean;
  loadMore: () => void;
  /** Reads again what failed: the next page, or the first. */
  retry: () => void;
};

/** The children of an open block, the first page read on mount. */
export function useCompactionChildren(compactionId: string): LoadedChildren {
  const query = useInfiniteQuery(childrenQuery(compactionId));
  const items = useMemo(() => flatten(query.data) ?? [], [query.data]);
  const { fetchNextPage, refetch, isFetchNextPageError } = query;
  const loadMore = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);
  return {
    items,
    loaded: query.data !== undefined,
    loading: query.isFetching,
    error: query.error?.message ?? null,
    hasMore: query.hasNextPage,
    loadMore,
    retry: () => void (isFetchNextPageError ? fetchNextPage() : refetch()),
  };
}

/** The children read so far, or undefined before the first page. */
export function loadedChildren(compactionId: string): TimelineItem[] | undefined {
  return flatten(queryClient().getQueryData<ChildrenData>(keys.children(compactionId)));
}

/** Reads the first page unless it is cached; false when it failed. */
export async function firstChildrenPage(compactionId: string): Promise<boolean> {
  return queryClient()
    .infiniteQuery(childrenQuery(compactionId))
    .then(
      () => true,
      () => false,
    );
}

/** Reads one more page; false when there was none or it failed. */
export async function nextChildrenPage(compactionId: string): Promise<boolean> {
  const observer = new InfiniteQueryObserver(queryClient(), childrenQuery(compactionId));
  if (!observer.getCurrentResult().hasNextPage) return false;
  const before = loadedChildren(compactionId)?.length ?? 0;
  const result = await observer.fetchNextPage({ cancelRefetch: false });
  return !result.isError && (flatten(result.data)?.length ?? 0) > before;
}

/** A first page that came with another answer (the path to a message); what is cached already stays. */
export function seedChildren(compactionId: string, page: ChildrenPage): void {
  const client = queryClient();
  if (client.getQueryData(keys.children(compactionId)) !== undefined) return;
  client.setQueryData<ChildrenData>(keys.children(compactionId), { pages: [page], pageParams: [null] });
}

/** Updates one message (e.g. its pin) wherever it sits in loaded children. */
export function patchLoadedMessage(messageId: string, patch: { pinned: boolean }): void {
  queryClient().setQueriesData<ChildrenData>({ queryKey: keys.allChildren() }, (data) =>
    data && {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        items: page.items.map((item) => (item.type === "message" && item.message.id === messageId ? { ...item, message: { ...item.message, ...patch } } : item)),
      })),
    },
  );
}
