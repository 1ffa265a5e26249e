// Query keys: everything of one conversation under ["conversation", id], so that a
// change seen from elsewhere invalidates it in one call; the sidebar's pages under ["conversations"].
export const keys = {
  conversation: (id: string) => ["conversation", id] as const,
  meter: (id: string) => ["conversation", id, "meter"] as const,
  activity: (id: string) => ["conversation", id, "activity"] as const,
  cost: (id: string) => ["conversation", id, "cost"] as const,
  pinned: (id: string) => ["conversation", id, "pinned"] as const,
  /** The pinned originals under the top-level blocks `blocks` (their ids): new blocks, a new read. */
  coveredPinned: (id: string, blocks: string) => ["conversation", id, "pinned", "covered", blocks] as const,
  pinnedList: (id: string) => ["conversation", id, "pinned", "list"] as const,
  /** What compaction `id` replaced, page by page. */
  children: (id: string) => ["compaction", id, "children"] as const,
  allChildren: () => ["compaction"] as const,
  search: (text: string, conversationId: string | null) => ["search", text, conversationId] as const,
  conversationPages: () => ["conversations"] as const,
  conversationPage: (query: { archived: boolean; after: string | null; limit: number }) => ["conversations", query] as const,
};
