"use client";
import { useChat } from "@/components/stores/chat-store";
import type { MessageView } from "@/lib/views";
import { PinIcon } from "../ui/icons";

/** Pins a message (always kept in the model's view) or unpins it. */
export function PinToggle({ message }: { message: MessageView }) {
  const setPinned = useChat((state) => state.setPinned);
  return (
    <button
      type="button"
      data-testid="pin-toggle"
      aria-pressed={message.pinned}
      aria-label={message.pinned ? "Unpin message" : "Pin message (always kept in the model's view)"}
      title={message.pinned ? "Unpin" : "Pin: never compressed away"}
      onClick={() => void setPinned(message.id, message.seq, !message.pinned)}
      className={`rounded p-1 ${
        message.pinned
          ? "text-amber-600 hover:bg-amber-100 dark:text-amber-400 dark:hover:bg-amber-950"
          : "text-neutral-400 hover:bg-neutral-200 hover:text-neutral-800 dark:hover:bg-neutral-800 dark:hover:text-neutral-200"
      }`}
    >
      <PinIcon />
    </button>
  );
}
