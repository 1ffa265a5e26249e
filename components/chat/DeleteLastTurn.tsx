"use client";
import { useState } from "react";
import { useChat } from "@/components/stores/chat-store";

/** Rewind by one turn, after an inline confirmation. */
export function DeleteLastTurn() {
  const busy = useChat((state) => state.busy);
  const hasMessages = useChat((state) => state.items.length > 0);
  const deleteLastTurn = useChat((state) => state.deleteLastTurn);
  const [confirming, setConfirming] = useState(false);
  if (!hasMessages) return null;
  if (confirming) {
    return (
      <span
        className="flex items-center gap-2"
        role="group"
        aria-label="Confirm deleting the last turn"
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            setConfirming(false);
          }
        }}
      >
        <span className="text-red-700 dark:text-red-400">Delete your last message and its reply?</span>
        <button
          type="button"
          autoFocus
          data-testid="confirm-delete-last-turn"
          onClick={async () => {
            setConfirming(false);
            await deleteLastTurn();
          }}
          className="font-medium text-red-700 hover:underline dark:text-red-400"
        >
          Delete
        </button>
        <button type="button" data-testid="cancel-delete-last-turn" onClick={() => setConfirming(false)} className="hover:underline">
          Cancel
        </button>
      </span>
    );
  }
  return (
    <button
      type="button"
      data-testid="delete-last-turn"
      disabled={busy}
      onClick={() => setConfirming(true)}
      className="hover:text-neutral-800 hover:underline disabled:opacity-50 dark:hover:text-neutral-200"
    >
      Delete last turn
    </button>
  );
}
