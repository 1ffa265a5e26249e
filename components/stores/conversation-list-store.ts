"use client";
// The sidebar's conversation list: seeded by the server render, refreshed after
// anything that changes titles, order or counts. Pages of the main list load as the list
// scrolls (keyset cursors, lib/db/organise.ts); the archive loads when it is opened.
// Pages are read through the query cache (GET /api/conversations/page): refreshes asked
// for at once (a turn's end, a change seen from elsewhere) share one request. What is
// shown stays here, as the sidebar moves conversations between groups before the server answers.
import { create } from "zustand";
import { fetchRead } from "@/components/queries/fetch-read";
import { keys } from "@/components/queries/keys";
import { queryClient } from "@/components/queries/query-client";
import { PAGE_SIZE } from "@/components/sidebar/page-size";
import type { ConversationPage, ConversationSummary } from "@/lib/views";

// A refresh reloads what was loaded, up to this many (one request).
const MAX_REFRESH = 500;

type Archive = { items: ConversationSummary[]; next: string | null; loaded: boolean };

type ConversationListState = {
  /** Pinned first, then the rest of the main list as loaded (what the header and the chat look titles up in). */
  conversations: ConversationSummary[];
  pinned: ConversationSummary[];
  recent: ConversationSummary[];
  next: string | null;
  archive: Archive;
  seeded: boolean;
  loadingMore: boolean;
  error: string | null;
  seed: (page: ConversationPage) => void;
  refresh: () => Promise<void>;
  loadMore: () => Promise<void>;
  loadArchive: (more?: boolean) => Promise<void>;
  rename: (id: string, title: string) => void;
  remove: (id: string) => void;
  /** After the server agreed: moves the conversation between the groups. */
  placed: (id: string, change: { pinned?: boolean; archived?: boolean }) => void;
};

/** One page, shared by every caller that asks for it while it is being read (never served from an older read). */
function readPage(query: { archived: boolean; after: string | null; limit: number }) {
  return queryClient().fetchQuery({
    queryKey: keys.conversationPage(query),
    queryFn: () => fetchRead("conversationPage", "", { archived: query.archived, limit: query.limit, ...(query.after ? { after: query.after } : {}) }),
    staleTime: 0,
    gcTime: 0,
  });
}

const combined = (pinned: ConversationSummary[], recent: ConversationSummary[]) => [...pinned, ...recent];
const newestFirst = (a: ConversationSummary, b: ConversationSummary) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id);

export const useConversationList = create<ConversationListState>()((set, get) => ({
  conversations: [],
  pinned: [],
  recent: [],
  next: null,
  archive: { items: [], next: null, loaded: false },
  seeded: false,
  loadingMore: false,
  error: null,
  seed(page) {
    set({ pinned: page.pinned, recent: page.items, next: page.next, conversations: combined(page.pinned, page.items), seeded: true });
  },
  async refresh() {
    const limit = Math.min(MAX_REFRESH, Math.max(PAGE_SIZE, get().recent.length));
    const result = await readPage({ archived: false, after: null, limit });
    if (result.ok) get().seed(result.data);
    if (get().archive.loaded) await get().loadArchive();
  },
  async loadMore() {
    const { next, loadingMore } = get();
    if (!next || loadingMore) return;
    set({ loadingMore: true });
    const result = await readPage({ archived: false, after: next, limit: PAGE_SIZE });
    if (result.ok) {
      const recent = [...get().recent, ...result.data.items.filter((item) => !get().recent.some((known) => known.id === item.id))];
      set({ recent, next: result.data.next, conversations: combined(get().pinned, recent), loadingMore: false, error: null });
    } else set({ loadingMore: false, error: result.error.message });
  },
  async loadArchive(more = false) {
    const after = more ? get().archive.next : null;
    if (more && !after) return;
    const result = await readPage({ archived: true, after, limit: PAGE_SIZE });
    if (!result.ok) return set({ error: result.error.message });
    const items = more ? [...get().archive.items, ...result.data.items] : result.data.items;
    set({ archive: { items, next: result.data.next, loaded: true }, error: null });
  },
  rename(id, title) {
    const retitle = (list: ConversationSummary[]) => list.map((c) => (c.id === id ? { ...c, title } : c));
    set((state) => ({
      pinned: retitle(state.pinned),
      recent: retitle(state.recent),
      conversations: retitle(state.conversations),
      archive: { ...state.archive, items: retitle(state.archive.items) },
    }));
  },
  remove(id) {
    const without = (list: ConversationSummary[]) => list.filter((c) => c.id !== id);
    set((state) => ({
      pinned: without(state.pinned),
      recent: without(state.recent),
      conversations: without(state.conversations),
      archive: { ...state.archive, items: without(state.archive.items) },
    }));
  },
  placed(id, change) {
    const state = get();
    const found = [...state.pinned, ...state.recent, ...state.archive.items].find((c) => c.id === id);
    if (!found) return;
    const now = new Date().toISOString();
    const pinnedAt = change.pinned === true ? now : change.pinned === false || change.archived === true ? null : found.pinnedAt;
    const archivedAt = change.archived === true ? now : change.archived === false || change.pinned === true ? null : found.archivedAt;
    const moved = { ...found, pinnedAt, archivedAt };
    const without = (list: ConversationSummary[]) => list.filter((c) => c.id !== id);
    let pinned = without(state.pinned);
    let recent = without(state.recent);
    let archived = without(state.archive.items);
    if (archivedAt) archived = [moved, ...archived].sort(newestFirst);
    else if (pinnedAt) pinned = [moved, ...pinned];
    // Back in the main list: in its date place (a conversation older than the loaded pages waits for its page).
    else if (!state.next || recent.length === 0 || newestFirst(moved, recent.at(-1)!) <= 0) recent = [...recent, moved].sort(newestFirst);
    set({ pinned, recent, conversations: combined(pinned, recent), archive: { ...state.archive, items: archived } });
  },
}));
