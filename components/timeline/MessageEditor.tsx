"use client";
import { useState } from "react";
import { useChat } from "@/components/stores/chat-store";
import type { MessageView } from "@/lib/views";
import { Button } from "../ui/Button";

/** Inline editor for a past user message: saving rewinds to it and regenerates. */
export function MessageEditor({ message, onClose }: { message: MessageView; onClose: () => void }) {
  const edit = useChat((state) => state.edit);
  const busy = useChat((state) => state.busy);
  const [text, setText] = useState(message.content);
  const save = () => {
    if (!text.trim()) return;
    onClose();
    void edit(message.seq, text);
  };
  return (
    <div className="space-y-1.5">
      <textarea
        autoFocus
        data-testid="edit-message-input"
        aria-label="Edit message"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onClose();
          if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) save();
        }}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        className="w-full resize-y rounded-md border border-sky-500 bg-white px-2 py-1.5 text-[13.5px] dark:bg-neutral-950"
      />
      <div className="flex items-center gap-2">
        <Button variant="primary" size="xs" data-testid="edit-message-save" disabled={busy || !text.trim()} onClick={save}>
          Save &amp; regenerate
        </Button>
        <Button variant="ghost" size="xs" onClick={onClose}>
          Cancel
        </Button>
        <span data-testid="edit-message-hint" className="text-[11px] text-neutral-500">
          <kbd className="font-mono">Ctrl+Enter</kbd> save · <kbd className="font-mono">Esc</kbd> cancel (Enter makes a new line here). Later
          messages leave the view (they stay stored).
        </span>
      </div>
    </div>
  );
}
