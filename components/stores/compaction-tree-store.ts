"use client";
// What the user opened in the compaction tree: expanded flags and the children loaded
// so far, keyed by compaction id. Module-level, so it survives navigating between
// conversations (and back); the expanded flags are also kept in sessionStorage, so a
// reload of the tab reopens what was open (the children are loaded again).
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { timelineReads } from "@/components/timeline/timeline-reads";
import type { TimelineItem } from "@/lib/views";

export const CHILDREN_PAGE_SIZE = 50;

export type LoadedChildren = {
  items: TimelineItem[];
  nextAfterSeq: number | null;
  loading: boolean;
  error: string | null;
  /** True once the first page arrived. */
  loaded: boolean;
};

type CompactionTreeState = {
  expanded: Record<string, boolean>;
  children: Record<string, LoadedChildren>;
  toggle: (compactionId: string) => void;
  collapse: (compactionId: string) => void;
  /** Closes every block (what was loaded stays cached). */
  collapseAll: () => void;
  loadChildren: (compactionId: string, more?: boolean) => Promise<void>;
};

const EMPTY: LoadedChildren = { items: [], nextAfterSeq: null, loading: false, error: null, loaded: false };

export const useCompactionTree = create<CompactionTreeState>()(
  persist(
    (set, get) => ({
      expanded: {},
      children: {},

      toggle(compactionId) {
        const open = !get().expanded[compactionId];
        set((state) => ({ expanded: { ...state.expanded, [compactionId]: open } }));
        const loaded = get().children[compactionId];
        if (open && (!loaded || (!loaded.loaded && !loaded.loading))) void get().loadChildren(compactionId);
      },

      collapse(compactionId) {
        set((state) => ({ expanded: { ...state.expanded, [compactionId]: false } }));
      },

      collapseAll() {
        set({ expanded: {} });
      },

      async loadChildren(compactionId, more = false) {
        const current = get().children[compactionId] ?? EMPTY;
        if (current.loading) return;
        const afterSeq = more ? current.nextAfterSeq : null;
        set((state) => ({ children: { ...state.children, [compactionId]: { ...current, loading: true, error: null } } }));
        const result = await timelineReads().children({
          compactionId,
          limit: CHILDREN_PAGE_SIZE,
          ...(afterSeq != null ? { afterSeq } : {}),
        });
        set((state) => {
          const before = state.children[compactionId] ?? EMPTY;
          const next: LoadedChildren = result.ok
            ? {
                items: more ? [...before.items, ...result.data.items] : result.data.items,
                nextAfterSeq: result.data.nextAfterSeq,
                loading: false,
                error: null,
                loaded: true,
              }
            : { ...before, loading: false, error: result.error.message };
          return { children: { ...state.children, [compactionId]: next } };
        });
      },
    }),
    {
      name: "strata.compaction-tree",
      storage: createJSONStorage(() => sessionStorage),
      partialize: (state) => ({ expanded: state.expanded }),
      // What was opened since the page loaded (a link to a message opens its tree) wins over what is remembered.
      merge: (stored, current) => ({
        ...current,
        expanded: { ...((stored as { expanded?: Record<string, boolean> } | undefined)?.expanded ?? {}), ...current.expanded },
      }),
      // Read after hydration (rememberOpenedCompactions): the server renders every block
      // closed, and the first client render must match it.
      skipHydration: true,
    },
  ),
);

/** Reopens what was open in this tab before a reload; called once the page has hydrated. */
export function rememberOpenedCompactions(): void {
  void useCompactionTree.persist.rehydrate();
}

/** Updates one message (e.g. its pin) wherever it sits in loaded children. */
export function patchLoadedMessage(messageId: string, patch: { pinned: boolean }) {
  useCompactionTree.setState((state) => {
    const children: Record<string, LoadedChildren> = {};
    for (const [id, loaded] of Object.entries(state.children)) {
      children[id] = {
        ...loaded,
        items: loaded.items.map((item) =>
          item.type === "message" && item.message.id === messageId ? { ...item, message: { ...item.message, ...patch } } : item,
        ),
      };
    }
    return { children };
  });
}
