"use client";
import { useRef, useState } from "react";
import { useChat } from "@/lib/client/chat-store";
import { Button } from "../ui/Button";
import { ArrowUpIcon, StopIcon } from "../ui/icons";
import { DeleteLastTurn } from "./DeleteLastTurn";

const COMPACT_COMMAND = /^\/compact(?:\s+([\s\S]*))?$/;

export function Composer() {
  const busy = useChat((state) => state.busy);
  const streaming = useChat((state) => state.abort !== null);
  const send = useChat((state) => state.send);
  const stop = useChat((state) => state.stop);
  const compactNow = useChat((state) => state.compactNow);
  const [text, setText] = useState("");
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  const resize = () => {
    const element = textareaRef.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, 240)}px`;
  };

  async function submit() {
    const content = text;
    if (!content.trim() || busy) return;
    setText("");
    requestAnimationFrame(resize);
    const command = COMPACT_COMMAND.exec(content.trim());
    if (command) await compactNow(command[1] ?? "");
    else await send(content);
    textareaRef.current?.focus();
  }

  return (
    <form
      className="shrink-0 border-t border-neutral-200 px-4 pt-3 pb-2 dark:border-neutral-800"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="flex items-end gap-2 rounded-lg border border-neutral-300 bg-white p-1.5 focus-within:border-sky-500 focus-within:ring-1 focus-within:ring-sky-500/40 dark:border-neutral-700 dark:bg-neutral-900">
        <textarea
          ref={textareaRef}
          data-testid="composer"
          aria-label="Message"
          rows={1}
          value={text}
          placeholder="Message…  (/compact [instructions] to compress)"
          onChange={(event) => {
            setText(event.target.value);
            resize();
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void submit();
            }
          }}
          className="max-h-60 min-h-8 flex-1 resize-none bg-transparent px-1.5 py-1 text-[13.5px] leading-relaxed outline-none placeholder:text-neutral-400"
        />
        {streaming ? (
          <Button variant="secondary" data-testid="stop-button" onClick={() => void stop()} aria-label="Stop the reply">
            <StopIcon /> Stop
          </Button>
        ) : (
          <Button type="submit" variant="primary" data-testid="send-button" disabled={busy || !text.trim()} aria-label="Send">
            <ArrowUpIcon /> Send
          </Button>
        )}
      </div>
      <div className="mt-1.5 flex items-center justify-between text-[11px] text-neutral-500">
        <span>
          <kbd className="font-mono">Enter</kbd> send · <kbd className="font-mono">Shift+Enter</kbd> newline ·{" "}
          <code className="font-mono">/compact …</code> compress with instructions
        </span>
        <DeleteLastTurn />
      </div>
    </form>
  );
}
