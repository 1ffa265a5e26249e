"use client";
// The browser's cache of server data (TanStack Query). One client per tab, reachable
// from the stores too: a mutation in a store invalidates what it changed. Data is
// fresh until something says otherwise — a mutation of this tab, or the change poll
// (components/stores/chat-store.ts) seeing another tab's — so nothing refetches on
// its own on focus or remount.
import { QueryClient } from "@tanstack/react-query";

function makeClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false, retry: 1 },
    },
  });
}

let browserClient: QueryClient | undefined;

/** The tab's client; a server render gets one of its own (nothing is fetched there). */
export function queryClient(): QueryClient {
  if (typeof window === "undefined") return makeClient();
  return (browserClient ??= makeClient());
}
