"use client";
import { useEffect, useLayoutEffect } from "react";
import { useChat } from "@/components/stores/chat-store";
import { useActivity } from "@/components/stores/activity-store";
import { rememberOpenedCompactions } from "@/components/stores/compaction-tree-store";
import type { ContextMeterView, ConversationView, TimelineItem } from "@/lib/views";
import { FindBar } from "../search/FindBar";
import { HashReveal } from "../search/HashReveal";
import { Timeline } from "../timeline/Timeline";
import { ActivityPanel } from "./ActivityPanel";
import { ChatHeader } from "./ChatHeader";
import { ChatStatus } from "./ChatStatus";
import { ToolApprovals } from "./ToolApprovals";
import { COMPOSER_ID, Composer } from "./Composer";
import Link from "next/link";
import { useConversationList } from "@/components/stores/conversation-list-store";

/** Shown instead of the messages when the conversation was deleted elsewhere (another tab, Back to a deleted one). */
function DeletedState() {
  return (
    <div data-testid="conversation-deleted" role="alert" className="flex flex-1 items-center justify-center p-8">
      <div className="max-w-sm text-center">
        <h2 className="text-base font-semibold">This conversation was deleted</h2>
        <p className="mt-2 text-[13px] text-neutral-600 dark:text-neutral-400">
          It was deleted in another tab or window; its messages are no longer stored. Anything you typed below is still there to copy.
        </p>
        <Link href="/" className="mt-4 inline-block text-[13px] font-medium text-sky-700 hover:underline dark:text-sky-400">
          Back to your conversations
        </Link>
      </div>
    </div>
  );
}

const SYNC_INTERVAL_MS = 2000;

export function ConversationScreen({
  conversation,
  initialItems,
  initialHasEarlier,
  initialMeter,
  initialVersion,
  maxMessageChars,
  maxAttachmentBytes,
  demo,
}: {
  conversation: ConversationView;
  initialItems: TimelineItem[];
  initialHasEarlier: boolean;
  initialMeter: ContextMeterView | null;
  /** The conversation's change state when the page was rendered (see useChat.sync). */
  initialVersion: string | null;
  maxMessageChars: number;
  maxAttachmentBytes: number;
  demo: boolean;
}) {
  const ready = useChat((state) => state.conversationId === conversation.id);
  const activityOpen = useActivity((state) => state.open);
  const busy = useChat((state) => state.busy);
  const settled = useChat((state) => state.settled);
  const deleted = useChat((state) => state.deleted && state.conversationId === conversation.id);

  useEffect(() => {
    if (deleted) useConversationList.getState().remove(conversation.id);
  }, [deleted, conversation.id]);

  // The browser tab shows the conversation's title (kept current when it is renamed).
  const title = useConversationList((state) => state.conversations.find((c) => c.id === conversation.id)?.title) ?? conversation.title;
  useEffect(() => {
    document.title = `${deleted ? "Deleted conversation" : title} · Strata`;
    return () => {
      document.title = "Strata";
    };
  }, [title, deleted]);

  useEffect(rememberOpenedCompactions, []);

  // Shift+Esc: to the message box from anywhere. "/" is search's (SidebarSearch), as on
  // GitHub and in most apps with a search box; in a text field it is just a character.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && event.shiftKey) {
        const composer = document.getElementById(COMPOSER_ID);
        if (!composer) return;
        event.preventDefault();
        composer.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  useLayoutEffect(() => {
    useChat.getState().open({
      conversationId: conversation.id,
      items: initialItems,
      hasEarlier: initialHasEarlier,
      meter: initialMeter,
      version: initialVersion,
    });
    // Only a different conversation resets the view; refreshed props of the same one don't.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversation.id]);

  // Other tabs (and other devices) write to this conversation too: a cheap change
  // state is polled while the tab is visible, and the timeline reloads when it moves.
  useEffect(() => {
    const sync = () => {
      if (document.visibilityState === "visible") void useChat.getState().sync();
    };
    // At once as well: Back/Forward show the page from the router's cache, which may be
    // stale or of a conversation deleted meanwhile.
    sync();
    const timer = setInterval(sync, SYNC_INTERVAL_MS);
    document.addEventListener("visibilitychange", sync);
    window.addEventListener("focus", sync);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", sync);
      window.removeEventListener("focus", sync);
    };
  }, [conversation.id]);

  return (
    <div
      className="flex min-h-0 flex-1 flex-col"
      data-testid="conversation"
      data-id={conversation.id}
      data-ready={ready}
      data-busy={busy}
      data-settled={settled}
    >
      <ChatHeader conversation={conversation} demo={demo} />
      <FindBar key={conversation.id} conversationId={conversation.id} />
      <HashReveal conversationId={conversation.id} />
      <div className="flex min-h-0 flex-1">
        <div className="flex min-w-0 flex-1 flex-col">
          {deleted ? (
            <DeletedState />
          ) : ready ? (
            <Timeline key={conversation.id} />
          ) : (
            <div className="flex-1" />
          )}
          <ToolApprovals />
          <ChatStatus />
          <Composer key={conversation.id} maxChars={maxMessageChars} maxAttachmentBytes={maxAttachmentBytes} shownConversationId={conversation.id} />
        </div>
        {activityOpen && ready ? <ActivityPanel /> : null}
      </div>
    </div>
  );
}
