"use client";
import { useState } from "react";
import { deleteMessageAction } from "@/app/actions";
import { useChat } from "@/components/stores/chat-store";
import type { MessageView } from "@/lib/views";
import { TrashIcon } from "../ui/icons";

/**
 * Deletes this one message after an inline confirmation. The server decides what goes
 * with it (a tool call and its results) and refuses a message inside a compaction; the
 * refusal is shown here, in its words.
 */
export function DeleteMessage({ message }: { message: MessageView }) {
  const busy = useChat((state) => state.busy);
  const conversationId = useChat((state) => state.conversationId);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const withTools = message.role === "tool" || (message.role === "assistant" && message.toolCalls.length > 0);

  async function confirm() {
    if (!conversationId) return;
    setWorking(true);
    const result = await deleteMessageAction({ conversationId, seq: message.seq });
    setWorking(false);
    if (!result.ok) return setError(result.error.message);
    setConfirming(false);
    await useChat.getState().reloadAfterChange({ list: true });
  }

  return (
    <>
      <button
        type="button"
        data-testid="delete-message"
        disabled={busy}
        aria-label={`Delete message #${message.seq}`}
        aria-expanded={confirming}
        title="Delete this message"
        onClick={() => {
          setError(null);
          setConfirming(true);
        }}
        className="rounded p-1 text-neutral-400 hover:bg-red-100 hover:text-red-700 disabled:opacity-40 dark:hover:bg-red-950 dark:hover:text-red-300"
      >
        <TrashIcon />
      </button>
      {confirming ? (
        <span
          role="group"
          aria-label={`Confirm deleting message #${message.seq}`}
          data-testid="delete-message-confirm"
          className="absolute right-2 top-8 z-20 flex max-w-[calc(100%-1rem)] flex-col gap-1.5 rounded-md border border-neutral-200 bg-white p-2 text-[12px] shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              event.preventDefault();
              setConfirming(false);
            }
          }}
        >
          <span className="text-neutral-800 dark:text-neutral-200">
            Delete message #{message.seq}
            {withTools ? " with its tool call and results" : ""}? The other messages keep their numbers.
          </span>
          {error ? (
            <span role="alert" data-testid="delete-message-error" className="text-red-700 dark:text-red-400">
              {error}
            </span>
          ) : null}
          <span className="flex gap-3">
            <button
              type="button"
              autoFocus
              data-testid="confirm-delete-message"
              disabled={working || error != null}
              onClick={() => void confirm()}
              className="font-medium text-red-700 hover:underline disabled:opacity-50 dark:text-red-400"
            >
              Delete
            </button>
            <button type="button" data-testid="cancel-delete-message" onClick={() => setConfirming(false)} className="hover:underline">
              {error ? "Close" : "Cancel"}
            </button>
          </span>
        </span>
      ) : null}
    </>
  );
}
