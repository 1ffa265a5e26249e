// The owner's reads over GET, one entry per read: where it lives, the query it takes and
// what it answers. The route handler parses its query with the entry's schema, and the
// browser (components/queries/fetch-read.ts) builds the URL from the same entry and
// checks the answer with it, so the two sides cannot drift apart. Zod and types only:
// client code imports it.
import { z } from "zod";
import { conversationCostSchema } from "../pricing";
import type { ResolvedSettings } from "../settings-layers";
import type { AllowedTool } from "../db/tool-allowances";
import type { ShareLinkView } from "../db/shares";
import type { ConversationMcpServerView } from "../chat/mcp-ops";
import type { modelSettings } from "../chat/model-ops";
import type {
  ActivityView,
  ContextMeterView,
  ConversationPage,
  MessageView,
  PinnedEntryView,
  SearchHit,
  TimelineItem,
  TreeOpeningView,
} from "../views";

// The views are built by the server's own mappers (lib/db/mappers.ts) and typed there;
// on the wire an answer only has to be the object or list its view describes.
const objectOf = <View>(name: string) =>
  z.custom<View>((value) => typeof value === "object" && value !== null && !Array.isArray(value), { message: `Expected ${name}.` });
const listOf = <View>(name: string) => z.custom<View[]>((value) => Array.isArray(value), { message: `Expected a list of ${name}.` });

/** A number in the query; text becomes NaN, which the operation's own schema refuses with its field message. */
const whole = z
  .union([z.string(), z.number()])
  .optional()
  .transform((value) => (value === undefined ? undefined : Number(value)));

/** Optional text in the query; an empty value counts as left out. */
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === "" ? undefined : value));

const encode = encodeURIComponent;

/** Each read: its URL from the owning resource's id, its query and its answer. */
export const ownerReads = {
  /** The timeline, newest page first: `beforeSeq` pages back. */
  timeline: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/messages`,
    query: z.object({ beforeSeq: whole, limit: whole }),
    answer: objectOf<{ items: TimelineItem[]; hasEarlier: boolean }>("a timeline page"),
  },
  /** What a compaction replaced, paged forward from `afterSeq`. */
  children: {
    path: (compactionId: string) => `/api/compactions/${encode(compactionId)}/children`,
    query: z.object({ afterSeq: whole, limit: whole }),
    answer: objectOf<{ items: TimelineItem[]; nextAfterSeq: number | null }>("a page of children"),
  },
  /** The compactions to open down to message #seq, each with its first page. */
  treePath: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/path`,
    query: z.object({ seq: whole }),
    answer: objectOf<TreeOpeningView>("a way down the tree"),
  },
  /** Pinned originals under the top-level compactions. */
  coveredPinned: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/pinned/covered`,
    query: z.object({}),
    answer: listOf<MessageView>("messages"),
  },
  /** Every pinned message, wherever it sits in the tree. */
  pinnedList: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/pinned`,
    query: z.object({}),
    answer: listOf<PinnedEntryView>("pinned entries"),
  },
  /** The Activity panel: attempts, undone compactions, background work. */
  activity: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/attempts`,
    query: z.object({}),
    answer: objectOf<ActivityView>("the activity"),
  },
  /** The context meter. */
  meter: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/context`,
    query: z.object({}),
    answer: z.object({ context: objectOf<ContextMeterView>("a context meter") }).transform((body) => body.context),
  },
  /** What the conversation's model calls cost. */
  cost: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/cost`,
    query: z.object({}),
    answer: z.object({ cost: conversationCostSchema }).transform((body) => body.cost),
  },
  /** A page of the sidebar's list (pinned first on the first page), or of the archive. */
  conversationPage: {
    // Not ".../page": Next.js takes a last path segment named page for a page file's and drops it.
    path: () => `/api/conversations/pages`,
    query: z.object({
      archived: z
        .union([z.enum(["true", "false"]), z.boolean()])
        .optional()
        .transform((value) => (value === undefined ? undefined : value === true || value === "true")),
      after: z.string().optional(),
      limit: whole,
    }),
    answer: z.object({
      pinned: listOf<ConversationPage["pinned"][number]>("conversations"),
      items: listOf<ConversationPage["items"][number]>("conversations"),
      next: z.string().nullable(),
    }),
  },
  /** The settings the conversation runs with, and where each comes from. */
  conversationSettings: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/settings`,
    query: z.object({}),
    answer: objectOf<ResolvedSettings>("settings"),
  },
  /** Its model, instructions and temperature, and the models to offer. */
  modelSettings: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/model`,
    query: z.object({}),
    answer: objectOf<Awaited<ReturnType<typeof modelSettings>>>("the model settings"),
  },
  /** The tools that run without asking in the conversation. */
  allowedTools: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/allowed-tools`,
    query: z.object({}),
    answer: z.object({ tools: listOf<AllowedTool>("tools") }).transform((body) => body.tools),
  },
  /** Each tool server, on or off for the conversation, with its status. */
  conversationToolServers: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/tool-servers`,
    query: z.object({}),
    answer: z.object({ servers: listOf<ConversationMcpServerView>("tool servers") }).transform((body) => body.servers),
  },
  /** The conversation's share links (never their tokens). */
  shareLinks: {
    path: (conversationId: string) => `/api/conversations/${encode(conversationId)}/shares`,
    query: z.object({}),
    answer: z.object({ links: listOf<ShareLinkView>("share links") }).transform((body) => body.links),
  },
  /** The caller's messages and summaries that match `q`, best first, in one conversation if named. */
  search: {
    path: () => `/api/search`,
    // The operation's own schema (searchInput) says what is wrong with a value.
    query: z.object({ q: z.string().optional(), conversationId: optionalText, limit: optionalText }),
    answer: z.object({ results: listOf<SearchHit>("search results") }).transform((body) => body.results),
  },
} as const;

export type OwnerReads = typeof ownerReads;
export type OwnerRead = keyof OwnerReads;
/** What the browser passes for a read's query (numbers and booleans, before they become text). */
export type ReadQuery<K extends OwnerRead> = z.input<OwnerReads[K]["query"]>;
export type ReadAnswer<K extends OwnerRead> = z.output<OwnerReads[K]["answer"]>;

/** The query parameters of a request, as the read's schema takes them. */
export function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams);
}

/** The URL of a read, its query in the order given, undefined values left out. */
export function readUrl<K extends OwnerRead>(read: K, id: string, query?: ReadQuery<K>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) params.set(name, String(value));
  const text = params.toString();
  return `${ownerReads[read].path(id)}${text ? `?${text}` : ""}`;
}
