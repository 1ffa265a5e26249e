"use client";
import Link from "next/link";
import { useState } from "react";
import { archiveConversationAction, deleteConversationAction, pinConversationAction, renameConversationAction } from "@/app/actions";
import { useConversationList } from "@/components/stores/conversation-list-store";
import { plural } from "@/components/format";
import type { ConversationSummary } from "@/lib/views";
import { Button } from "../ui/Button";
import { submitWith } from "../ui/forms";
import { MoreIcon, PencilIcon, PinIcon } from "../ui/icons";

type Mode = "view" | "actions" | "rename" | "confirm-delete";

const TITLE_LIMIT = 200;
const ICON_BUTTON =
  "rounded p-1 text-neutral-500 hover:bg-neutral-300/60 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-sky-500 dark:hover:bg-neutral-700 dark:hover:text-neutral-100";
const ACTION = "rounded px-1.5 py-0.5 hover:bg-neutral-300/60 focus-visible:outline-2 focus-visible:outline-sky-500 dark:hover:bg-neutral-700";

export function ConversationListItem({
  conversation,
  active,
  onDeleted,
}: {
  conversation: ConversationSummary;
  active: boolean;
  onDeleted: () => void;
}) {
  const { rename, remove, refresh, placed } = useConversationList();
  const [mode, setMode] = useState<Mode>("view");
  const [title, setTitle] = useState(conversation.title);
  const [error, setError] = useState<string | null>(null);
  const pinned = conversation.pinnedAt != null;
  const archived = conversation.archivedAt != null;

  function startRename() {
    setTitle(conversation.title);
    setError(null);
    setMode("rename");
  }

  function backToView() {
    setMode("view");
    // Keyboard users land where they started (looked up: the link is re-rendered by then).
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-testid="conversation-item"][data-id="${conversation.id}"] a`)?.focus());
  }

  async function saveTitle() {
    if (mode !== "rename") return;
    const next = title.trim();
    if (next === conversation.title) return backToView();
    // Refused here and by the server alike: an empty title would leave nothing to click.
    if (!next) return setError("The title is empty.");
    const result = await renameConversationAction({ conversationId: conversation.id, title: next });
    if (!result.ok) return setError(result.error.message);
    rename(conversation.id, result.data.title);
    setError(null);
    backToView();
  }

  async function run(work: () => Promise<{ ok: true } | { ok: false; error: { message: string } }>, after: () => void) {
    const result = await work();
    if (!result.ok) return setError(result.error.message);
    setError(null);
    setMode("view");
    after();
  }

  const togglePin = () =>
    run(
      () => pinConversationAction({ conversationId: conversation.id, pinned: !pinned }),
      () => placed(conversation.id, { pinned: !pinned }),
    );
  const toggleArchive = () =>
    run(
      () => archiveConversationAction({ conversationId: conversation.id, archived: !archived }),
      () => placed(conversation.id, { archived: !archived }),
    );

  async function confirmDelete() {
    const result = await deleteConversationAction(conversation.id);
    if (!result.ok) {
      setError(result.error.message);
      setMode("view");
      return;
    }
    remove(conversation.id);
    onDeleted();
    void refresh();
  }

  return (
    <li
      data-testid="conversation-item"
      data-id={conversation.id}
      data-pinned={pinned || undefined}
      data-archived={archived || undefined}
      className={`group rounded-md ${active ? "bg-neutral-200/80 dark:bg-neutral-800" : "hover:bg-neutral-200/50 dark:hover:bg-neutral-800/60"}`}
    >
      {mode === "rename" ? (
        <form className="p-1" onSubmit={submitWith(saveTitle)}>
          <input
            autoFocus
            data-testid="rename-input"
            aria-label="Conversation title"
            aria-invalid={error ? true : undefined}
            value={title}
            maxLength={TITLE_LIMIT}
            onChange={(event) => setTitle(event.target.value)}
            onBlur={() => void saveTitle()}
            onKeyDown={(event) => {
              if (event.key === "Escape") {
                event.preventDefault();
                event.stopPropagation();
                setTitle(conversation.title);
                setError(null);
                backToView();
              }
            }}
            className="w-full rounded border border-sky-500 bg-white px-1.5 py-1 text-[12.5px] outline-none dark:bg-neutral-950"
          />
        </form>
      ) : mode === "confirm-delete" ? (
        <div className="flex items-center gap-1 px-2 py-1.5 text-[12px]" role="group" aria-label="Confirm delete">
          <span className="flex-1 truncate text-red-700 dark:text-red-400">Delete “{conversation.title}”?</span>
          <Button variant="danger" size="xs" data-testid="confirm-delete" onClick={() => void confirmDelete()} autoFocus>
            Delete
          </Button>
          <Button variant="ghost" size="xs" onClick={backToView}>
            Cancel
          </Button>
        </div>
      ) : (
        <>
          <div className="flex items-center">
            <Link
              href={`/c/${conversation.id}`}
              aria-current={active ? "page" : undefined}
              aria-keyshortcuts="F2"
              className="min-w-0 flex-1 px-2 py-1.5"
              title={conversation.title}
              onKeyDown={(event) => {
                if (event.key === "F2") {
                  event.preventDefault();
                  startRename();
                }
              }}
            >
              <span className="flex items-center gap-1">
                {pinned ? <PinIcon className="size-3 shrink-0 text-sky-600 dark:text-sky-400" /> : null}
                <span className="block truncate text-[13px] font-medium" data-testid="conversation-title">
                  {conversation.title}
                </span>
              </span>
              <span className="block text-[11px] text-neutral-600 dark:text-neutral-400">{plural(conversation.messageCount, "message")}</span>
            </Link>
            <div
              className={`flex pr-1 group-hover:opacity-100 group-focus-within:opacity-100 [@media(hover:none)]:opacity-100 ${mode === "actions" ? "opacity-100" : "opacity-0"}`}
            >
              <button type="button" data-testid="rename-conversation" aria-label={`Rename “${conversation.title}”`} onClick={startRename} className={ICON_BUTTON}>
                <PencilIcon />
              </button>
              <button
                type="button"
                data-testid="conversation-actions"
                aria-label={`More actions for “${conversation.title}”`}
                aria-expanded={mode === "actions"}
                onClick={() => setMode(mode === "actions" ? "view" : "actions")}
                className={ICON_BUTTON}
              >
                <MoreIcon />
              </button>
            </div>
          </div>
          {mode === "actions" ? (
            <div
              role="group"
              aria-label={`Actions for “${conversation.title}”`}
              className="flex flex-wrap gap-1 px-1.5 pb-1.5 text-[12px] text-neutral-700 dark:text-neutral-300"
              onKeyDown={(event) => {
                if (event.key === "Escape") {
                  event.preventDefault();
                  backToView();
                }
              }}
            >
              <button type="button" autoFocus data-testid="pin-conversation" onClick={() => void togglePin()} className={ACTION}>
                {pinned ? "Unpin" : "Pin to top"}
              </button>
              <button type="button" data-testid="archive-conversation" onClick={() => void toggleArchive()} className={ACTION}>
                {archived ? "Unarchive" : "Archive"}
              </button>
              <button
                type="button"
                data-testid="delete-conversation"
                onClick={() => setMode("confirm-delete")}
                className={`${ACTION} text-red-700 dark:text-red-400`}
              >
                Delete
              </button>
            </div>
          ) : null}
        </>
      )}
      {error ? (
        <p role="alert" data-testid="conversation-item-error" className="px-2 pb-1 text-[11px] text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </li>
  );
}
