"use client";
import { useLayoutEffect } from "react";
import { useChat } from "@/lib/client/chat-store";
import type { ContextMeterView, ConversationView, TimelineItem } from "@/lib/views";
import { FindBar } from "../search/FindBar";
import { HashReveal } from "../search/HashReveal";
import { Timeline } from "../timeline/Timeline";
import { ActivityPanel } from "./ActivityPanel";
import { ChatHeader } from "./ChatHeader";
import { ChatStatus } from "./ChatStatus";
import { Composer } from "./Composer";

export function ConversationScreen({
  conversation,
  initialItems,
  initialHasEarlier,
  initialMeter,
  demo,
}: {
  conversation: ConversationView;
  initialItems: TimelineItem[];
  initialHasEarlier: boolean;
  initialMeter: ContextMeterView | null;
  demo: boolean;
}) {
  const ready = useChat((state) => state.conversationId === conversation.id);
  const activityOpen = useChat((state) => state.activityOpen);
  const busy = useChat((state) => state.busy);
  const settled = useChat((state) => state.settled);

  useLayoutEffect(() => {
    useChat.getState().open({
      conversationId: conversation.id,
      items: initialItems,
      hasEarlier: initialHasEarlier,
      meter: initialMeter,
    });
    // Only a different conversation resets the view; refreshed props of the same one don't.
    // eslint-disable-next-line react-hooks/exhaustive-deps
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
          {ready ? <Timeline key={conversation.id} /> : <div className="flex-1" />}
          <ChatStatus />
          <Composer />
        </div>
        {activityOpen && ready ? <ActivityPanel /> : null}
      </div>
    </div>
  );
}
