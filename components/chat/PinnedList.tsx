"use client";
import { useRef, useState } from "react";
import { usePinnedList } from "@/components/queries/conversation-data";
import type { PinnedEntryView } from "@/lib/views";
import { jumpToMessage } from "../timeline/jump";
import { ROLE_LABELS } from "../timeline/MessageItem";
import { Button } from "../ui/Button";
import { PinIcon } from "../ui/icons";
import { HeaderLabel, PHONE_MENU_ROW } from "./HeaderLabel";
import { Dialog } from "@/components/ui/Dialog";

type ListState = { kind: "loading" } | { kind: "loaded"; entries: PinnedEntryView[] } | { kind: "failed"; message: string };

/**
 * Every pinned message of the conversation, wherever it sits in the tree: each entry
 * opens the message in the timeline the way "Go to #n" does (the path through the
 * blocks above it opens in one step).
 */
export function PinnedList({ conversationId }: { conversationId: string }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [jumpError, setJumpError] = useState<string | null>(null);
  // Read when first opened; a pin set or cleared since (chat-store.ts) has it read again.
  const [opened, setOpened] = useState(false);
  const list = usePinnedList(conversationId, opened);
  const state: ListState = list.data
    ? { kind: "loaded", entries: list.data }
    : list.error
      ? { kind: "failed", message: list.error.message }
      : { kind: "loading" };

  async function open(seq: number) {
    dialogRef.current?.close();
    const outcome = await jumpToMessage(seq);
    if (!outcome.ok) {
      setJumpError(outcome.message);
      dialogRef.current?.showModal();
    }
  }

  return (
    <>
      <Button
        data-testid="pinned-list-open"
        variant="ghost"
        title="Pinned messages"
        className={PHONE_MENU_ROW}
        onClick={() => {
          setJumpError(null);
          dialogRef.current?.showModal();
          setOpened(true);
          // A failed read is tried again on the next opening.
          if (list.error) void list.refetch();
        }}
      >
        <PinIcon className="size-3.5" /> <HeaderLabel>Pinned</HeaderLabel>
      </Button>
      <Dialog
        dialogRef={dialogRef}
        testId="pinned-list"
        width="w-[min(32rem,calc(100vw-2rem))]"
        title="Pinned messages"
      >
        <div className="max-h-[60vh] overflow-y-auto p-2 text-[13px]">
          {jumpError ? (
            <p role="alert" data-testid="pinned-list-jump-error" className="px-2 py-1 text-red-700 dark:text-red-300">
              {jumpError}
            </p>
          ) : null}
          {state.kind === "loading" ? (
            <p className="px-2 py-1 text-neutral-500">Loading…</p>
          ) : state.kind === "failed" ? (
            <p role="alert" className="px-2 py-1 text-red-700 dark:text-red-300">
              The pinned messages could not be loaded: {state.message}
            </p>
          ) : state.entries.length === 0 ? (
            <p data-testid="pinned-list-empty" className="px-2 py-1 text-neutral-500">
              No pinned messages yet. Pin a message to keep it in the model&apos;s view; it is listed here.
            </p>
          ) : (
            <ul className="space-y-0.5">
              {state.entries.map((entry) => (
                <li key={entry.seq}>
                  <button
                    type="button"
                    data-testid="pinned-entry"
                    data-seq={entry.seq}
                    onClick={() => void open(entry.seq)}
                    className="flex w-full min-w-0 items-baseline gap-2 rounded-md px-2 py-1.5 text-left hover:bg-neutral-100 focus-visible:bg-neutral-100 dark:hover:bg-neutral-800 dark:focus-visible:bg-neutral-800"
                  >
                    <span className="shrink-0 font-mono text-[12px] text-neutral-500 tabular-nums">#{entry.seq}</span>
                    <span className="shrink-0 text-[12px] font-medium text-neutral-700 dark:text-neutral-300">{ROLE_LABELS[entry.role]}</span>
                    <span className="min-w-0 flex-1 truncate">{entry.firstLine || "(no text)"}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </Dialog>
    </>
  );
}
