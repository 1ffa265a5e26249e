"use client";
// The open conversation: its timeline and the turn in flight. Actions here are the only
// place the chat view talks to the server about them; what they have to say goes to the
// notices store. The data beside the timeline (meter, activity, cost, pinned) lives in
// the query cache (components/queries): a turn writes the meter its `done` event
// carried, and every change invalidates what it touched.
//
// Remote changes: the tab polls the conversation's change state (its version) and
// reloads when it moved. A change this tab made must not count: a turn takes the
// version from its `done` event, any other change reads the version before reloading.
import { create } from "zustand";
import { z } from "zod";
import {
  answerToolApprovalAction,
  applyProposalAction,
  compactNowAction,
  pinMessageAction,
  rewindAction,
  stopTurnAction,
  switchVersionAction,
} from "@/app/actions";
import { toolApprovalPromptSchema, type ToolApprovalPrompt, type TurnEvent } from "@/lib/chat/events";
import type { ContextMeterView, TimelineItem } from "@/lib/views";
import { timelineReads } from "@/components/timeline/timeline-reads";
import { notify, useNotices } from "@/components/stores/notices-store";
import { conversationChanged, pinsChanged, setMeter, turnChanged } from "@/components/queries/conversation-data";
import { keys } from "@/components/queries/keys";
import { queryClient } from "@/components/queries/query-client";
import { patchLoadedMessage } from "@/components/queries/compaction-children";
import { useConversationList } from "@/components/stores/conversation-list-store";
import { plural } from "@/components/format";
import { streamTurn, TurnRequestError } from "@/components/stores/stream-turn";
import { watchTurn } from "@/components/stores/watch-turn";
import type { TurnBody } from "@/lib/chat/turn-request";
import { applyCompaction, itemSeq, lastMessage, noteUnanswered, patchMessage, prependPage, upsertMessage } from "@/components/timeline/items";

const STOP_GRACE_MS = 5000;

export const TIMELINE_PAGE_SIZE = 200;

/** A tool call the running turn waits on: the user approves or denies it. */
export type PendingApproval = ToolApprovalPrompt & { answering: boolean };

/** A proposed summary; the token figures are the server's, for the text as proposed (see CompactResult). */
export type Proposal = { summary: string; fromSeq: number; toSeq: number; replacedTokens: number; proposedTokens: number; instructions: string };

type ChatState = {
  conversationId: string | null;
  items: TimelineItem[];
  hasEarlier: boolean;
  loadingEarlier: boolean;
  /** A turn is running (from send until done/error/stop). */
  busy: boolean;
  /** The assistant reply being streamed, before it is persisted. */
  /** The reply as it streams, and the model's thinking before it. */
  streaming: { text: string; model: string | null; reasoning?: string } | null;
  /** Tool calls the running turn waits on, in the order the model made them. */
  approvals: PendingApproval[];
  /** A compaction is running; messageCount when the server said how many. */
  compressing: { messageCount: number | null } | null;
  lastError: { message: string; retryable: boolean } | null;
  abort: AbortController | null;
  /** Counts operations this tab started and finished (turns, compactions, rewinds): lets tests and observers wait for one. */
  settled: number;
  /** The server's change state last seen (lib/db/turn-lease.ts): a tab reloads its timeline when it moves. */
  version: string | null;
  /** A turn runs in this conversation elsewhere (another tab, another device): sending waits for it. */
  remoteTurn: boolean;
  /** This tab draws that turn live (its stream comes from GET …/live): the reply shows as it is written. */
  watching: boolean;
  /** The conversation was deleted (in another tab) while it was open here. */
  deleted: boolean;

  open: (input: {
    conversationId: string;
    items: TimelineItem[];
    hasEarlier: boolean;
    meter: ContextMeterView | null;
    version?: string | null;
  }) => void;
  /** Sends a message; `onAccepted` runs once the server has stored it (the composer clears only then). */
  send: (content: string, onAccepted?: () => void, attachmentIds?: string[]) => Promise<void>;
  /** Polls the server's change state: picks up messages and compactions made elsewhere. */
  sync: () => Promise<void>;
  retry: () => Promise<void>;
  edit: (seq: number, content: string) => Promise<void>;
  /** A new version of the reply that `seq` belongs to; the current one stays as a version. */
  regenerate: (seq: number) => Promise<void>;
  /** Asks the model to finish the stopped reply `seq`, appended to it. */
  continueReply: (seq: number) => Promise<void>;
  /** Shows another version of a message, with the conversation as it went on from it. */
  switchVersion: (messageId: string) => Promise<void>;
  stop: () => Promise<void>;
  /** Answers a tool call the running turn waits on; `always`: the tool runs without asking in this conversation from now on. */
  answerApproval: (callId: string, approved: boolean, always?: boolean) => Promise<void>;
  loadEarlier: () => Promise<void>;
  refreshTimeline: () => Promise<void>;
  refreshMeter: () => Promise<void>;
  /**
   * After a change this tab made outside a turn (a version switch, a compaction, a
   * rewind, an undo): takes the server's version first, so the poll does not see the
   * change as another tab's, then reloads the timeline and everything of the conversation.
   */
  reloadAfterChange: (options?: { list?: boolean }) => Promise<void>;
  compactNow: (instructions: string) => Promise<boolean>;
  previewCompaction: (instructions: string) => Promise<Proposal | null>;
  /** True once applied; else why not (also a notice, which a modal dialog hides). */
  applyProposal: (proposal: Proposal) => Promise<true | string>;
  setPinned: (messageId: string, seq: number, pinned: boolean) => Promise<void>;
  deleteLastTurn: () => Promise<void>;
};


/** The user's message as typed, shown at once while the server stores it (status "streaming" until then). */
const PENDING_ID = "pending-user-message";

function pendingMessage(content: string, items: TimelineItem[]): TimelineItem {
  const last = items.at(-1);
  const seq = last ? (last.type === "message" ? last.message.seq : last.compaction.toSeq) + 1 : 1;
  return {
    type: "message",
    message: { id: PENDING_ID, seq, role: "user", content, tokenCount: 0, status: "streaming", pinned: false, createdAt: new Date().toISOString() },
  };
}

const withoutPending = (items: TimelineItem[]) => items.filter((item) => !(item.type === "message" && item.message.id === PENDING_ID));

const changeStateSchema = z.object({ version: z.string(), turnRunning: z.boolean(), approvals: z.array(toolApprovalPromptSchema).default([]) });

/** The conversation's change state (a GET, outside the server-action queue); null when it could not be read this time. */
async function fetchChanges(conversationId: string): Promise<z.infer<typeof changeStateSchema> | "not_found" | null> {
  try {
    const response = await fetch(`/api/conversations/${encodeURIComponent(conversationId)}/changes`, { cache: "no-store" });
    if (response.status === 404) return "not_found";
    if (!response.ok) return null;
    const parsed = changeStateSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

type TurnProgress = { compacted: boolean; finished: boolean; metered: boolean };

const refreshList = () => void useConversationList.getState().refresh();

export const useChat = create<ChatState>()((set, get) => {
  /** Runs `work` only if the conversation is still the open one. */
  const forConversation = (conversationId: string, work: () => void) => {
    if (get().conversationId === conversationId) work();
  };

  const applyEvent = (conversationId: string, event: TurnEvent, turn: TurnProgress) => {
    forConversation(conversationId, () => {
      switch (event.type) {
        case "message":
          set((state) => ({
            items: upsertMessage(
              event.message.role === "user" ? withoutPending(state.items) : event.message.role === "assistant" ? noteUnanswered(state.items, null) : state.items,
              event.message,
            ),
            streaming: event.message.role === "assistant" ? null : state.streaming,
          }));
          break;
        case "status":
          set({ compressing: { messageCount: event.stage === "compressing" ? event.messageCount : null } });
          break;
        case "compaction":
          turn.compacted = true;
          set((state) => ({ items: applyCompaction(state.items, event.compaction), compressing: null }));
          break;
        case "compaction_failed":
          set({ compressing: null });
          notify(
            "warning",
            `Compression failed (${event.attempt.trigger.replace("_", " ")}, ${event.attempt.strategy.replaceAll("_", " ")}): ${
              event.attempt.error ?? event.attempt.reason
            }. The conversation continues uncompressed.`,
          );
          break;
        case "assistant_start":
          set({ streaming: { text: "", model: event.model }, compressing: null });
          break;
        case "delta":
          set((state) => ({ streaming: { ...state.streaming, text: (state.streaming?.text ?? "") + event.text, model: state.streaming?.model ?? null } }));
          break;
        case "reasoning":
          set((state) => ({
            streaming: { text: state.streaming?.text ?? "", model: state.streaming?.model ?? null, reasoning: (state.streaming?.reasoning ?? "") + event.text },
          }));
          break;
        case "tool_approval": {
          const { type: _type, ...approval } = event;
          set((state) => ({ approvals: [...state.approvals.filter((known) => known.callId !== event.callId), { ...approval, answering: false }] }));
          break;
        }
        case "tool_approval_settled":
          set((state) => ({ approvals: state.approvals.filter((known) => known.callId !== event.callId) }));
          if (event.decision === "denied" && event.reason === "timeout") notify("warning", "A tool call waited too long for your answer and was denied.");
          break;
        case "error":
          turn.finished = true;
          set((state) => ({ lastError: { message: event.message, retryable: event.retryable }, streaming: null, compressing: null, items: noteUnanswered(state.items, event.message) }));
          // A retryable failure is told once, by the timeline's retry row beside its Retry button.
          if (!event.retryable) notify("error", `The model failed: ${event.message}`);
          break;
        case "notice":
          notify("warning", event.message);
          break;
        case "done":
          turn.finished = true;
          turn.metered = true;
          setMeter(conversationId, event.context);
          set({ streaming: null, compressing: null });
          break;
      }
    });
  };

  const settle = () => set((state) => ({ settled: state.settled + 1 }));

  /**
   * A change of the open conversation made while the view says it is busy (and, for a
   * compression, that it compresses): afterwards the view is freed, `after` reads again
   * what the change touched, and the operation counts as settled, whatever the outcome.
   */
  const busyChange = async <T>(conversationId: string, options: { compressing: boolean; after: () => Promise<void> }, work: () => Promise<T>): Promise<T> => {
    set({ busy: true, ...(options.compressing ? { compressing: { messageCount: null } } : {}) });
    try {
      return await work();
    } finally {
      forConversation(conversationId, () => set({ busy: false, ...(options.compressing ? { compressing: null } : {}) }));
      await options.after();
      settle();
    }
  };

  // The live view of a turn this tab did not start; one at a time, ended when the conversation changes.
  let watch: AbortController | null = null;
  const WATCHED = new Set<TurnEvent["type"]>(["message", "status", "compaction", "assistant_start", "reasoning", "delta", "done"]);
  const watchRemoteTurn = (conversationId: string) => {
    if (watch) return;
    const controller = new AbortController();
    watch = controller;
    void (async () => {
      const turn: TurnProgress = { compacted: false, finished: false, metered: false };
      let seen = false;
      try {
        for await (const event of watchTurn(conversationId, controller.signal)) {
          if (!seen) forConversation(conversationId, () => set({ watching: true }));
          seen = true;
          if (WATCHED.has(event.type)) applyEvent(conversationId, event, turn);
        }
      } finally {
        if (watch === controller) watch = null;
        if (seen) {
          forConversation(conversationId, () => set({ watching: false, streaming: null, compressing: null }));
          // The turn ended: show what it stored (a tab that only watched has not reloaded yet).
          if (!controller.signal.aborted) void get().sync();
        }
      }
    })();
  };
  const stopWatching = () => {
    watch?.abort();
    watch = null;
  };
  /** The version the server reports now: what this tab has shown since its own change. */
  const adoptVersion = async (conversationId: string) => {
    const result = await fetchChanges(conversationId);
    if (result && result !== "not_found") forConversation(conversationId, () => set({ version: result.version }));
  };

  const runTurn = async (request: TurnBody, before?: () => void, onAccepted?: () => void) => {
    const conversationId = get().conversationId;
    if (!conversationId || get().busy) return;
    const abort = new AbortController();
    set({ busy: true, abort, lastError: null, streaming: null, compressing: null });
    before?.();
    const turn: TurnProgress = { compacted: false, finished: false, metered: false };
    let accepted = false;
    // Whether the server answered at all: a connection lost after that lost the stream, not the request.
    let answered = false;
    // The name the server gave the conversation with this first message; shown once the turn ends.
    let title: string | null = null;
    try {
      for await (const event of streamTurn(conversationId, request, abort.signal)) {
        answered = true;
        if (event.type === "message" && event.message.role === "user" && !accepted) {
          accepted = true;
          onAccepted?.();
          // An earlier refusal ("still in the box") is over: this message went.
          useNotices.getState().dismissAbout("unsent");
        }
        if (event.type === "title") title = event.title;
        // The conversation as this turn left it: the poll must not reload it as another tab's change.
        if (event.type === "done") forConversation(conversationId, () => set({ version: event.version }));
        applyEvent(conversationId, event, turn);
      }
    } catch (error) {
      if (!abort.signal.aborted) {
        // What the browser says of a failed fetch ("TypeError: Failed to fetch") names no cause a person can act on.
        const message =
          error instanceof TurnRequestError
            ? error.message
            : answered
              ? "The connection to the server was lost while the reply was streaming; reload the page to see how the turn ended."
              : "The server could not be reached (check the network connection).";
        forConversation(conversationId, () => {
          if (onAccepted && !accepted) notify("error", `${message} Your message was not sent; it is still in the box.`, "unsent");
          else notify("error", message);
          if (error instanceof TurnRequestError && error.code === "not_found") set({ deleted: true });
          if (error instanceof TurnRequestError && error.code === "busy") set({ remoteTurn: true });
        });
      }
    } finally {
      forConversation(conversationId, () =>
        set((state) => ({ busy: false, abort: null, streaming: null, compressing: null, approvals: [], items: withoutPending(state.items) })),
      );
      // A stream that ended without its last event was cut short: the server still saved
      // what it had, so show the stored state.
      // A new version changes the versions shown beside it: the server says which.
      const versioned = request.kind === "edit" || request.kind === "regenerate";
      // Ended without its done event (error, stop, cut short): what it stored is read with the version it makes.
      if (!turn.metered) await adoptVersion(conversationId);
      if (abort.signal.aborted || turn.compacted || !turn.finished || versioned) await get().refreshTimeline();
      // The done event carried the meter; without it (error, stop, cut short) it is read back.
      await turnChanged(conversationId, turn.metered);
      if (title) useConversationList.getState().rename(conversationId, title);
      // Once per turn: the order and counts of the sidebar moved.
      refreshList();
      settle();
    }
  };

  return {
    conversationId: null,
    items: [],
    hasEarlier: false,
    loadingEarlier: false,
    busy: false,
    streaming: null,
    approvals: [],
    compressing: null,
    lastError: null,
    abort: null,
    settled: 0,
    version: null,
    remoteTurn: false,
    watching: false,
    deleted: false,

    open({ conversationId, items, hasEarlier, meter, version = null }) {
      if (get().conversationId === conversationId && get().busy) return;
      stopWatching();
      setMeter(conversationId, meter);
      set({
        conversationId,
        items,
        hasEarlier,
        loadingEarlier: false,
        busy: false,
        abort: null,
        streaming: null,
        approvals: [],
        compressing: null,
        lastError: null,
        version,
        remoteTurn: false,
        watching: false,
        deleted: false,
      });
      useNotices.getState().clear();
    },

    send: (content, onAccepted, attachmentIds) =>
      runTurn({ kind: "send", content, ...(attachmentIds?.length ? { attachmentIds } : {}) }, () => set((state) => ({ items: [...state.items, pendingMessage(content, state.items)] })), onAccepted),

    async sync() {
      const { conversationId, busy, deleted } = get();
      if (!conversationId || busy || deleted) return;
      const result = await fetchChanges(conversationId);
      if (get().busy || !result) return;
      forConversation(conversationId, () => {
        if (result === "not_found") {
          set({ deleted: true, remoteTurn: false });
          return;
        }
        const { version, turnRunning, approvals } = result;
        const known = get().version;
        // A turn this tab did not start (or started before a reload) may wait on the user.
        set((state) => ({
          version,
          remoteTurn: turnRunning,
          approvals: approvals.map((prompt) => ({ ...prompt, answering: state.approvals.find((shown) => shown.callId === prompt.callId)?.answering ?? false })),
        }));
        // Another tab's turn that runs on this server is drawn as it streams.
        if (turnRunning && !get().busy) watchRemoteTurn(conversationId);
        if (known === null || known === version) return;
        void Promise.all([get().refreshTimeline(), conversationChanged(conversationId)]);
        refreshList();
      });
    },
    retry: () => runTurn({ kind: "retry" }),
    edit: (seq, content) =>
      runTurn({ kind: "edit", editSeq: seq, content }, () =>
        // The edited message and everything after it leave the view; the new turn streams in.
        set((state) => ({ items: state.items.filter((item) => itemSeq(item) < seq) })),
      ),

    async regenerate(seq) {
      await runTurn({ kind: "regenerate", regenerateSeq: seq }, () =>
        // The reply (from the first message after the user's) and everything after it leave the view.
        set((state) => {
          const asked = state.items.filter((item) => item.type === "message" && item.message.role === "user" && item.message.seq < seq);
          const from = asked.length ? itemSeq(asked.at(-1)!) + 1 : seq;
          return { items: state.items.filter((item) => itemSeq(item) < from) };
        }),
      );
      // A regenerate that failed before any text brought the previous reply back: nothing to retry.
      const last = lastMessage(get().items);
      if (last && last.role !== "user" && last.status !== "error") set({ lastError: null });
    },
    continueReply: (seq) => runTurn({ kind: "continue", continueSeq: seq }),

    async switchVersion(messageId) {
      const conversationId = get().conversationId;
      if (!conversationId || get().busy) return;
      await busyChange(conversationId, { compressing: false, after: () => get().reloadAfterChange({ list: true }) }, async () => {
        const result = await switchVersionAction({ conversationId, messageId });
        if (!result.ok) notify("error", `Could not show that version: ${result.error.message}`);
        // An error shown belonged to the version shown before.
        forConversation(conversationId, () => set({ lastError: null }));
      });
    },

    async stop() {
      const { conversationId, abort } = get();
      if (!conversationId) return;
      await stopTurnAction(conversationId);
      // The server ends the turn and sends the kept partial reply as its last event, so
      // the stream is left to close by itself; it is cut only if the server goes quiet.
      if (abort) setTimeout(() => abort.abort(), STOP_GRACE_MS);
    },

    async answerApproval(callId, approved, always = false) {
      const conversationId = get().conversationId;
      const pending = get().approvals.find((approval) => approval.callId === callId);
      if (!conversationId || !pending || pending.answering) return;
      const mark = (answering: boolean) =>
        set((state) => ({ approvals: state.approvals.map((approval) => (approval.callId === callId ? { ...approval, answering } : approval)) }));
      mark(true);
      const result = await answerToolApprovalAction({ conversationId, callId, approved, ...(always ? { always } : {}) });
      forConversation(conversationId, () => {
        if (result.ok) return;
        // Not waiting any more (answered elsewhere, timed out, stopped): its settled event removes it, or the turn's end does.
        if (result.error.code === "conflict") {
          set((state) => ({ approvals: state.approvals.filter((approval) => approval.callId !== callId) }));
          notify("warning", result.error.message);
          return;
        }
        mark(false);
        notify("error", `Your answer did not reach the server: ${result.error.message} Try again.`);
      });
    },

    async loadEarlier() {
      const { conversationId, items, loadingEarlier, hasEarlier } = get();
      if (!conversationId || loadingEarlier || !hasEarlier) return;
      const oldest = items.find((item) => item.type === "message");
      if (!oldest || oldest.type !== "message") return;
      set({ loadingEarlier: true });
      const result = await timelineReads().timeline({ conversationId, beforeSeq: oldest.message.seq, limit: TIMELINE_PAGE_SIZE });
      forConversation(conversationId, () => {
        if (result.ok) {
          set((state) => ({ items: prependPage(state.items, result.data.items), hasEarlier: result.data.hasEarlier, loadingEarlier: false }));
        } else {
          set({ loadingEarlier: false });
          notify("error", `Could not load earlier messages: ${result.error.message}`);
        }
      });
    },

    async refreshTimeline() {
      const conversationId = get().conversationId;
      if (!conversationId) return;
      const result = await timelineReads().timeline({ conversationId, limit: TIMELINE_PAGE_SIZE });
      if (result.ok) forConversation(conversationId, () => set({ items: result.data.items, hasEarlier: result.data.hasEarlier }));
    },

    async refreshMeter() {
      const conversationId = get().conversationId;
      if (conversationId) await queryClient().invalidateQueries({ queryKey: keys.meter(conversationId) });
    },

    async reloadAfterChange({ list = false } = {}) {
      const conversationId = get().conversationId;
      if (!conversationId) return;
      await adoptVersion(conversationId);
      await Promise.all([get().refreshTimeline(), conversationChanged(conversationId)]);
      if (list) refreshList();
    },

    async compactNow(instructions) {
      const conversationId = get().conversationId;
      if (!conversationId || get().busy) return false;
      return busyChange(conversationId, { compressing: true, after: () => get().reloadAfterChange() }, async () => {
        const result = await compactNowAction({ conversationId, ...(instructions.trim() ? { instructions: instructions.trim() } : {}) });
        if (!result.ok) {
          notify("error", `Compression refused: ${result.error.message}`);
          return false;
        }
        for (const failed of result.data.failed) {
          notify(failed.outcome === "failed" ? "warning" : "info", `Compression ${failed.outcome}: ${failed.error ?? failed.reason}`);
        }
        const applied = result.data.compactions;
        if (applied.length) {
          const covered = applied.reduce((sum, c) => sum + c.coveredMessageCount, 0);
          notify("info", `Compressed ${plural(covered, "message")} into ${plural(applied.length, "summary", "summaries")}.`);
        }
        return applied.length > 0;
      });
    },

    async previewCompaction(instructions) {
      const conversationId = get().conversationId;
      if (!conversationId || get().busy) return null;
      // A preview stores nothing but its attempt.
      const after = () => queryClient().invalidateQueries({ queryKey: keys.activity(conversationId) });
      return busyChange(conversationId, { compressing: true, after }, async () => {
        const trimmed = instructions.trim();
        const result = await compactNowAction({ conversationId, preview: true, ...(trimmed ? { instructions: trimmed } : {}) });
        if (!result.ok) {
          notify("error", `Preview failed: ${result.error.message}`);
          return null;
        }
        if (!result.data.proposal) {
          const why = result.data.failed[0];
          notify("warning", `Nothing to preview${why ? `: ${why.error ?? why.reason}` : "."}`);
          return null;
        }
        return { ...result.data.proposal, instructions: trimmed };
      });
    },

    async applyProposal(proposal) {
      const conversationId = get().conversationId;
      if (!conversationId || get().busy) return "Wait until the reply or compaction in progress has finished.";
      return busyChange(conversationId, { compressing: false, after: () => get().reloadAfterChange() }, async (): Promise<true | string> => {
        const result = await applyProposalAction({
          conversationId,
          summary: proposal.summary,
          fromSeq: proposal.fromSeq,
          toSeq: proposal.toSeq,
          ...(proposal.instructions ? { instructions: proposal.instructions } : {}),
        });
        if (!result.ok) {
          const why = `Could not apply the summary: ${result.error.message}`;
          notify("error", why);
          return why;
        }
        const reasons = result.data.failed.map((failed) => `Compression ${failed.outcome}: ${failed.error ?? failed.reason}`);
        for (const reason of reasons) notify("warning", reason);
        return result.data.compactions.length > 0 ? true : (reasons[0] ?? "The summary was not applied.");
      });
    },

    async setPinned(messageId, seq, pinned) {
      const conversationId = get().conversationId;
      if (!conversationId) return;
      set((state) => ({ items: patchMessage(state.items, messageId, { pinned }) }));
      patchLoadedMessage(messageId, { pinned });
      const result = await pinMessageAction({ conversationId, seq, pinned });
      if (!result.ok) {
        set((state) => ({ items: patchMessage(state.items, messageId, { pinned: !pinned }) }));
        patchLoadedMessage(messageId, { pinned: !pinned });
        notify("error", `Could not ${pinned ? "pin" : "unpin"} the message: ${result.error.message}`);
      } else {
        // Saved: the meter (pins stay in the model's view) and the pinned strips and list read again.
        await adoptVersion(conversationId);
        void get().refreshMeter();
        void pinsChanged(conversationId, messageId, pinned);
      }
    },

    async deleteLastTurn() {
      const conversationId = get().conversationId;
      if (!conversationId || get().busy) return;
      const result = await rewindAction({ conversationId, turns: 1 });
      if (!result.ok) notify("error", `Could not delete the last turn: ${result.error.message}`);
      set({ lastError: null });
      await get().reloadAfterChange({ list: true });
      settle();
    },
  };
});
