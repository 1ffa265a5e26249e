"use client";
import Link from "next/link";
import { useActivity } from "@/components/stores/activity-store";
import { useConversationList } from "@/components/stores/conversation-list-store";
import type { ConversationSource, ConversationView } from "@/lib/views";
import { ActivityIcon, GearIcon, MoreIcon } from "../ui/icons";
import { ExportMenu } from "../shell/ExportMenu";
import { usePopover } from "../shell/use-dismiss";
import { CompressNowDialog } from "./CompressNowDialog";
import { ConversationSettingsDialog } from "./ConversationSettingsDialog";
import { ContextMeter, MeterFigure, useMeterWords } from "./ContextMeter";
import { ConversationCost } from "./ConversationCost";
import { DemoBadge } from "./DemoBadge";
import { HeaderLabel, PHONE_MENU_ROW } from "./HeaderLabel";
import { PinnedList } from "./PinnedList";
import { ModelPicker } from "./ModelPicker";
import { ToolServersMenu } from "./ToolServersMenu";
import { ShareDialog } from "../share/ShareDialog";

/** Where a conversation started from a summary came from; plain text once the source is gone. */
function SourceLink({ source }: { source: ConversationSource }) {
  // Never squeezed to nothing by the header's buttons: the title gives way first.
  const className = "hidden min-w-24 truncate text-[11.5px] text-neutral-500 sm:inline";
  if (source.title == null) return <span className={className} data-testid="conversation-source">Continued from a deleted conversation</span>;
  return (
    <Link href={`/c/${source.conversationId}`} data-testid="conversation-source" className={`${className} text-sky-700 hover:underline dark:text-sky-400`}>
      Continued from {source.title}
    </Link>
  );
}

export function ChatHeader({ conversation, demo }: { conversation: ConversationView; demo: boolean }) {
  const title = useConversationList((state) => state.conversations.find((c) => c.id === conversation.id)?.title) ?? conversation.title;
  const activityOpen = useActivity((state) => state.open);
  const toggleActivity = useActivity((state) => state.toggle);
  // Below 1024 px the controls fold into a menu: the same elements, shown as a panel.
  const { open: menuOpen, ref: menuRef, toggleProps: menuToggleProps } = usePopover();
  const meterWords = useMeterWords();

  return (
    <header className="relative flex h-12 shrink-0 items-center gap-3 border-b border-neutral-200 pr-3 pl-12 md:px-4 dark:border-neutral-800">
      <div className="flex min-w-0 flex-1 items-center gap-2">
        <h1 className="truncate text-[13.5px] font-semibold" data-testid="conversation-heading">
          {title}
        </h1>
        <ModelPicker key={conversation.id} conversationId={conversation.id} initialModel={conversation.model} />
        {demo ? <DemoBadge /> : null}
        {conversation.source ? <SourceLink source={conversation.source} /> : null}
      </div>
      <div ref={menuRef} className="flex items-center">
        <button
          {...menuToggleProps}
          data-testid="header-menu-toggle"
          aria-controls="chat-header-controls"
          aria-label={meterWords ? `Conversation menu, ${meterWords}` : "Conversation menu"}
          className="inline-flex h-8 min-w-8 items-center justify-center gap-1 rounded-md px-1 text-neutral-600 hover:bg-neutral-100 lg:hidden dark:text-neutral-400 dark:hover:bg-neutral-800"
        >
          <MeterFigure />
          <MoreIcon className="size-4" />
        </button>
        <div
          id="chat-header-controls"
          data-testid="header-controls"
          className={`${menuOpen ? "flex" : "hidden"} absolute top-11 right-2 z-30 w-64 flex-col items-stretch gap-1 rounded-md border border-neutral-200 bg-white p-2 shadow-lg lg:static lg:flex lg:w-auto lg:flex-row lg:items-center lg:gap-1 lg:border-0 xl:gap-3 lg:bg-transparent lg:p-0 lg:shadow-none dark:border-neutral-700 dark:bg-neutral-900 lg:dark:bg-transparent`}
        >
          <ContextMeter />
          <ConversationCost />
          <CompressNowDialog />
          <ConversationSettingsDialog conversationId={conversation.id} />
          <ToolServersMenu conversationId={conversation.id} />
          <PinnedList conversationId={conversation.id} />
          <button
            type="button"
            data-testid="activity-toggle"
            aria-pressed={activityOpen}
            title="What compression did"
            onClick={toggleActivity}
            className={`inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-[12.5px] font-medium ${PHONE_MENU_ROW} ${
              activityOpen
                ? "bg-neutral-900 text-white dark:bg-neutral-100 dark:text-neutral-900"
                : "text-neutral-600 hover:bg-neutral-100 dark:text-neutral-400 dark:hover:bg-neutral-800"
            }`}
          >
            <ActivityIcon /> <HeaderLabel>Activity</HeaderLabel>
          </button>
          <Link
            href="/settings"
            data-testid="settings-link"
            title="Your compression settings"
            className={`inline-flex size-7 items-center justify-center rounded-md text-neutral-600 hover:bg-neutral-100 dark:text-neutral-400 dark:hover:bg-neutral-800 ${PHONE_MENU_ROW}`}
          >
            <GearIcon className="size-4 max-lg:size-3.5" />
            {/* The header shows the gear alone; the phone menu's rows all say what they are. */}
            <span className="lg:sr-only">Your compression settings</span>
          </Link>
          <ExportMenu conversationId={conversation.id} />
          <ShareDialog conversationId={conversation.id} />
        </div>
      </div>
    </header>
  );
}
