"use client";
// Which blocks of the compaction tree the user opened, keyed by compaction id: the
// tab's own view state (what they replaced is server data, in the query cache:
// components/queries/compaction-children.ts). Module-level, so it survives navigating
// between conversations (and back); also kept in sessionStorage, so a reload of the tab
// reopens what was open.
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";

type CompactionTreeState = {
  expanded: Record<string, boolean>;
  toggle: (compactionId: string) => void;
  collapse: (compactionId: string) => void;
  /** Opens the blocks (each reads its first page as it renders). */
  open: (compactionIds: string[]) => void;
  /** Closes every block (what was read stays cached). */
  collapseAll: () => void;
};

export const useCompactionTree = create<CompactionTreeState>()(
  persist(
    (set) => ({
      expanded: {},
      toggle(compactionId) {
        set((state) => ({ expanded: { ...state.expanded, [compactionId]: !state.expanded[compactionId] } }));
      },
      collapse(compactionId) {
        set((state) => ({ expanded: { ...state.expanded, [compactionId]: false } }));
      },
      open(compactionIds) {
        set((state) => ({ expanded: { ...state.expanded, ...Object.fromEntries(compactionIds.map((id) => [id, true])) } }));
      },
      collapseAll() {
        set({ expanded: {} });
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
