"use client";
import Link from "next/link";
import { useState } from "react";
import { deleteConversationAction, updateConversationAction } from "@/app/actions";
import { useConversationList } from "@/components/stores/conversation-list-store";
import { plural } from "@/components/format";
import type { ConversationSummary } from "@/lib/views";
import { Button } from "../ui/Button";
import { submitWith } from "../ui/forms";
import { PencilIcon, TrashIcon } from "../ui/icons";

type Mode = "view" | "rename" | "confirm-delete";

export function ConversationListItem({
  conversation,
  active,
  onDeleted,
}: {
  conversation: ConversationSummary;
  active: boolean;
  onDeleted: () => void;
}) {
  const { rename, remove, refresh } = useConversationList();
  const [mode, setMode] = useState<Mode>("view");
  const [title, setTitle] = useState(conversation.title);
  const [error, setError] = useState<string | null>(null);

  async function saveTitle() {
    const next = title.trim();
    if (!next || next === conversation.title) {
      setMode("view");
      setTitle(conversation.title);
      return;
    }
    const result = await updateConversationAction({ conversationId: conversation.id, title: next });
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    rename(conversation.id, next);
    setError(null);
    setMode("view");
  }

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
      className={`group rounded-md ${active ? "bg-neutral-200/80 dark:bg-neutral-800" : "hover:bg-neutral-200/50 dark:hover:bg-neutral-800/60"}`}
    >
      {mode === "rename" ? (
        <form
          className="p-1"
          onSubmit={submitWith(saveTitle)}
        >
          <input
            autoFocus
            data-testid="rename-input"
            aria-label="Conversation title"
            value={title}
            maxLength={200}
            onChange={(event) => setTitle(event.target.value)}
            onBlur={() => void saveTitle()}
            onKeyDown={(event) => {
              if (event.key === "Escape") {
                setTitle(conversation.title);
                setMode("view");
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
          <Button variant="ghost" size="xs" onClick={() => setMode("view")}>
            Cancel
          </Button>
        </div>
      ) : (
        <div className="flex items-center">
          <Link
            href={`/c/${conversation.id}`}
            aria-current={active ? "page" : undefined}
            className="min-w-0 flex-1 px-2 py-1.5"
            title={conversation.title}
          >
            <span className="block truncate text-[13px] font-medium" data-testid="conversation-title">
              {conversation.title}
            </span>
            <span className="block text-[11px] text-neutral-600 dark:text-neutral-400">{plural(conversation.messageCount, "message")}</span>
          </Link>
          <div className="flex pr-1 opacity-0 group-hover:opacity-100 group-focus-within:opacity-100 [@media(hover:none)]:opacity-100">
            <button
              type="button"
              data-testid="rename-conversation"
              aria-label={`Rename “${conversation.title}”`}
              onClick={() => {
                setTitle(conversation.title);
                setMode("rename");
              }}
              className="rounded p-1 text-neutral-500 hover:bg-neutral-300/60 hover:text-neutral-900 dark:hover:bg-neutral-700 dark:hover:text-neutral-100"
            >
              <PencilIcon />
            </button>
            <button
              type="button"
              data-testid="delete-conversation"
              aria-label={`Delete “${conversation.title}”`}
              onClick={() => setMode("confirm-delete")}
              className="rounded p-1 text-neutral-500 hover:bg-red-100 hover:text-red-700 dark:hover:bg-red-950 dark:hover:text-red-300"
            >
              <TrashIcon />
            </button>
          </div>
        </div>
      )}
      {error ? (
        <p role="alert" className="px-2 pb-1 text-[11px] text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </li>
  );
}
