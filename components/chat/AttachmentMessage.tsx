"use client";
// A sent user message with files: what the user typed, a chip per file, and (on request)
// the files' text exactly as the model received it, which is the rest of the message's content.
import { useState } from "react";
import { typedPart } from "@/lib/attachments/compose";
import type { MessageView } from "@/lib/views";
import { useAttachments } from "@/components/stores/attachment-store";
import { Markdown } from "../ui/Markdown";
import { isImage, SentChips } from "./AttachmentChips";

export function UserMessageBody({ message }: { message: MessageView }) {
  const attachments = useAttachments((state) => state.byMessage[message.id]);
  const [showText, setShowText] = useState(false);
  if (!attachments?.length) return <Markdown text={message.content} breaks />;
  const typed = typedPart(message.content, attachments.map((attachment) => attachment.contentStart ?? -1));
  return (
    <>
      {typed ? <Markdown text={typed} breaks /> : null}
      <SentChips attachments={attachments} />
      {/* Images have no text to show: the line standing for each is what a text-only reader gets. */}
      {attachments.every(isImage) ? null : (
        <button
          type="button"
          data-testid="show-attachment-text"
          aria-expanded={showText}
          onClick={() => setShowText((shown) => !shown)}
          className="mt-1 text-[11.5px] text-neutral-700 underline underline-offset-2 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-sky-500 dark:text-neutral-300 dark:hover:text-neutral-100"
        >
          {showText ? "Hide the files' text" : "Show the files' text as the model received it"}
        </button>
      )}
      {showText ? (
        <div data-testid="attachment-text" className="mt-1 max-h-96 overflow-auto rounded-md border border-neutral-200 p-2 dark:border-neutral-800">
          <Markdown text={message.content.slice(typed.length).trimStart()} breaks />
        </div>
      ) : null}
    </>
  );
}
