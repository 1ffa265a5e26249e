"use client";
// Opening a message or summary wherever it sits: asks the server for the compactions
// holding it (one read, however deep the tree) and opens them all at once, pages the
// timeline back until the top-level item holding it is loaded, walks down the opened
// levels (paging children as needed), then scrolls the element into view and marks it.
// Anchors are the URL fragments of search hits: `m-SEQ` (a message) and
// `s-FROMSEQ-lLEVEL` (the summary of that level whose range starts there).
import { create } from "zustand";
import { timelineReads } from "@/components/timeline/timeline-reads";
import { useChat } from "@/components/stores/chat-store";
import { useCompactionTree } from "@/components/stores/compaction-tree-store";
import { firstChildrenPage, loadedChildren, nextChildrenPage, seedChildren } from "@/components/queries/compaction-children";
import { itemKey } from "@/components/timeline/items";
import type { TimelineItem } from "@/lib/views";

export type Anchor = { kind: "message"; seq: number } | { kind: "summary"; seq: number; level: number };

export function parseAnchor(fragment: string): Anchor | null {
  const text = fragment.replace(/^#/, "");
  const message = /^m-(\d{1,9})$/.exec(text);
  if (message) return { kind: "message", seq: Number(message[1]) };
  const summary = /^s-(\d{1,9})-l(\d{1,3})$/.exec(text);
  if (summary) return { kind: "summary", seq: Number(summary[1]), level: Number(summary[2]) };
  return null;
}

type RevealState = {
  /** A reveal asked for from elsewhere (search results); the conversation screen runs it. */
  request: { conversationId: string; anchor: string; nonce: number } | null;
  /** The top-level row the timeline should bring on screen (it owns the virtualizer). */
  scrollTo: { key: string; nonce: number } | null;
  requestReveal: (conversationId: string, anchor: string) => void;
};

let nonce = 0;

export const useReveal = create<RevealState>()((set) => ({
  request: null,
  scrollTo: null,
  requestReveal(conversationId, anchor) {
    set({ request: { conversationId, anchor, nonce: ++nonce } });
  },
}));

// A clearing or an undone record holds no message in the timeline (they stand below it), so it is never a step on the way.
const holds = (seq: number) => (item: TimelineItem) =>
  item.type === "message"
    ? item.message.seq === seq
    : item.type === "compaction" && item.compaction.kind !== "clearing" && item.compaction.fromSeq <= seq && seq <= item.compaction.toSeq;

function isTarget(item: TimelineItem, anchor: Anchor): boolean {
  if (anchor.kind === "message") return item.type === "message" && item.message.seq === anchor.seq;
  return item.type === "compaction" && item.compaction.level === anchor.level && item.compaction.fromSeq === anchor.seq;
}

/** The item among `items` on the way to the anchor: the target itself, else what contains it. */
function nextStep(items: TimelineItem[], anchor: Anchor): TimelineItem | undefined {
  return items.find((item) => isTarget(item, anchor)) ?? items.find((item) => item.type === "compaction" && holds(anchor.seq)(item));
}

async function topLevelItem(anchor: Anchor): Promise<TimelineItem | undefined> {
  for (;;) {
    const chat = useChat.getState();
    const found = nextStep(chat.items, anchor);
    if (found || !chat.hasEarlier) return found;
    const before = chat.items.length;
    await chat.loadEarlier();
    if (useChat.getState().items.length === before) return undefined;
  }
}

/** Opens a compaction and waits until the first page of what it replaced has arrived. */
async function expanded(compactionId: string): Promise<void> {
  useCompactionTree.getState().open([compactionId]);
  await firstChildrenPage(compactionId);
}

async function childOnTheWay(compactionId: string, anchor: Anchor): Promise<TimelineItem | undefined> {
  await expanded(compactionId);
  for (;;) {
    const items = loadedChildren(compactionId);
    const found = items ? nextStep(items, anchor) : undefined;
    if (found || !items || !(await nextChildrenPage(compactionId))) return found;
  }
}

function selectorFor(item: TimelineItem): string {
  return item.type === "message"
    ? `[data-testid="message"][data-seq="${item.message.seq}"]`
    : `[data-testid="compaction-block"][data-id="${item.compaction.id}"]`;
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/** Waits for the element to render (the virtualized row may need a scroll first), then shows it. */
async function showElement(selector: string, topKey: string): Promise<HTMLElement | null> {
  for (let frame = 0; frame < 240; frame++) {
    const element = document.querySelectorAll<HTMLElement>(selector);
    const target = element[element.length - 1];
    if (target) {
      target.scrollIntoView({ block: "center" });
      return target;
    }
    if (frame % 20 === 0) useReveal.setState({ scrollTo: { key: topKey, nonce: ++nonce } });
    await nextFrame();
  }
  return null;
}

let marked: HTMLElement | null = null;

/**
 * Opens every compaction between the top level and the anchor in one step: one request
 * returns the path with the first page of each level, all expanded at once.
 * Returns the server's refusal (a number past the end, a rewound message), else null.
 */
async function openPathTo(anchor: Anchor): Promise<string | null> {
  const conversationId = useChat.getState().conversationId;
  if (!conversationId) return null;
  const result = await timelineReads().treePath({ conversationId, seq: anchor.seq });
  if (!result.ok) return result.error.message;
  const { path, pages } = result.data;
  // A summary anchor opens the levels above it only.
  const ids = path.filter((step) => anchor.kind === "message" || step.level > anchor.level).map((step) => step.id);
  // What is cached already stays: it may hold further pages.
  for (const id of ids) {
    const page = pages[id];
    if (page) seedChildren(id, page);
  }
  useCompactionTree.getState().open(ids);
  return null;
}

/** Expands the compactions at once and waits for the first page of each. */
export async function openAll(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  useCompactionTree.getState().open(ids);
  await Promise.all(ids.map((id) => firstChildrenPage(id)));
}

export type RevealOutcome = { ok: true } | { ok: false; message: string };

/** Opens the anchor in the current conversation, or says why it cannot (rewound, past the end, a wrong link). */
export async function revealAnchorOutcome(fragment: string): Promise<RevealOutcome> {
  const anchor = parseAnchor(fragment);
  if (!anchor) return { ok: false, message: "Not a link to a message or a summary." };
  const refused = await openPathTo(anchor);
  // A summary is still found level by level when the message its range starts with is gone.
  if (refused && anchor.kind === "message") return { ok: false, message: refused };
  if (await walkTo(anchor)) return { ok: true };
  return { ok: false, message: anchor.kind === "message" ? `Message #${anchor.seq} could not be opened.` : "That summary is no longer in this conversation." };
}

/** Opens the anchor in the current conversation; false if it is not there (rewound, or a wrong link). */
export async function revealAnchor(fragment: string): Promise<boolean> {
  return (await revealAnchorOutcome(fragment)).ok;
}

async function walkTo(anchor: Anchor): Promise<boolean> {
  const top = await topLevelItem(anchor);
  if (!top) return false;
  useReveal.setState({ scrollTo: { key: itemKey(top), nonce: ++nonce } });
  let current = top;
  while (current.type === "compaction" && !isTarget(current, anchor)) {
    const child = await childOnTheWay(current.compaction.id, anchor);
    if (!child) break;
    current = child;
  }
  if (!isTarget(current, anchor)) return false;
  await nextFrame();
  const element = await showElement(selectorFor(current), itemKey(top));
  if (!element) return false;
  if (marked && marked !== element) delete marked.dataset.searchTarget;
  element.dataset.searchTarget = "true";
  marked = element;
  // Settle once more: rows above may still be measured and move it.
  await nextFrame();
  element.scrollIntoView({ block: "center" });
  return true;
}
