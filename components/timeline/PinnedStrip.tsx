"use client";
import { useMemo } from "react";
import { useChat } from "@/components/stores/chat-store";
import { topBlocks, useCoveredPinned } from "@/components/queries/conversation-data";
import { notify } from "@/components/stores/notices-store";
import type { CompactionView } from "@/lib/views";
import { PinIcon } from "../ui/icons";
import { jumpToMessage } from "./jump";

const ROLE_NAMES: Record<string, string> = { user: "You", assistant: "Assistant", tool: "Tool", system: "System" };

/**
 * The pinned originals a top-level block covers, under its header, collapsed or not: the
 * model keeps them in view beside the summary, and so does the timeline. Compact cards;
 * the number opens the message where it sits in the tree.
 */
export function PinnedStrip({ compaction }: { compaction: CompactionView }) {
  const conversationId = useChat((state) => state.conversationId);
  const blocks = useChat((state) => topBlocks(state.items));
  const all = useCoveredPinned(conversationId, blocks).data;
  const pinned = useMemo(
    () => (all ?? []).filter((message) => message.seq >= compaction.fromSeq && message.seq <= compaction.toSeq),
    [all, compaction.fromSeq, compaction.toSeq],
  );
  if (pinned.length === 0) return null;
  return (
    <section
      data-testid="pinned-strip"
      aria-label={`Pinned messages inside messages ${compaction.fromSeq} to ${compaction.toSeq}`}
      className="mx-3 mt-1.5 min-w-0 rounded-md border border-amber-300/80 bg-amber-50/70 px-2 py-1.5 dark:border-amber-700/60 dark:bg-amber-950/20"
    >
      <h4 className="flex items-center gap-1 text-[10.5px] font-semibold tracking-wide text-amber-800 uppercase dark:text-amber-300">
        <PinIcon className="size-3" /> Pinned · in the model&apos;s view beside this summary
      </h4>
      <ul className="mt-1 space-y-1">
        {pinned.map((message) => (
          <li key={message.id} data-testid="pinned-card" data-seq={message.seq} className="min-w-0 text-[12.5px]">
            <div className="flex min-w-0 items-center gap-1.5 text-[11.5px]">
              <button
                type="button"
                data-testid="pinned-jump"
                title={`Open message #${message.seq} where it sits`}
                onClick={() =>
                  void jumpToMessage(message.seq).then((outcome) => {
                    if (!outcome.ok) notify("error", outcome.message);
                  })
                }
                className="shrink-0 rounded font-mono text-sky-700 underline-offset-2 hover:underline dark:text-sky-400"
              >
                #{message.seq}
              </button>
              <span className="font-semibold text-neutral-700 dark:text-neutral-300">{ROLE_NAMES[message.role] ?? message.role}</span>
            </div>
            <p className="line-clamp-3 break-words whitespace-pre-wrap text-neutral-800 dark:text-neutral-200">{message.content}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
