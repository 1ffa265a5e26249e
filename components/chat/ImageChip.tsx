"use client";
// A sent image: a thumbnail that opens the original full size in a dialog over the chat
// (the link still opens it in a tab with a middle click or "open in new tab").
import { useRef } from "react";
import { formatCount } from "@/components/format";
import type { AttachmentView } from "@/lib/db/attachments";
import { CloseIcon } from "../ui/icons";
import { useAttachmentUrl } from "./attachment-url";

export function ImageChip({ attachment, className }: { attachment: AttachmentView; className: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const src = `${useAttachmentUrl()(attachment.id)}?view=inline`;
  const titleId = `image-${attachment.id}-title`;
  return (
    <>
      <a
        data-testid="message-image"
        href={src}
        target="_blank"
        rel="noopener noreferrer"
        title={`Open ${attachment.name} full size`}
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          dialog.current?.showModal();
        }}
        className={className}
      >
        {/* A plain img: the file is private (the owner's cookie, or the link's token), which Next's image optimizer would not send. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={src} alt={attachment.name} loading="lazy" className="h-24 max-w-48 rounded object-contain" />
        {/* The name wraps rather than ending in "…" beside the token count: cut, it kept about 100 px of itself. */}
        <span className="flex max-w-48 min-w-0 flex-wrap items-baseline gap-x-1 px-1">
          <span className="min-w-0 font-medium wrap-anywhere">{attachment.name}</span>
          <span className="text-neutral-600 tabular-nums dark:text-neutral-400">{formatCount(attachment.tokenCount)} tokens</span>
        </span>
      </a>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        data-testid="image-viewer"
        onClick={(event) => {
          // A click on the backdrop (the dialog itself, outside its content) closes it.
          if (event.target === event.currentTarget) dialog.current?.close();
        }}
        className="m-auto max-h-[calc(100vh-2rem)] max-w-[calc(100vw-2rem)] rounded-xl border border-neutral-200 bg-white p-0 text-neutral-900 shadow-2xl backdrop:bg-neutral-950/60 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100"
      >
        <div className="flex items-center justify-between gap-3 border-b border-neutral-200 px-3 py-2 dark:border-neutral-800">
          <h2 id={titleId} className="min-w-0 truncate text-[13px] font-semibold">
            {attachment.name}
          </h2>
          <button
            type="button"
            aria-label="Close"
            onClick={() => dialog.current?.close()}
            className="rounded p-1 text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-sky-500 dark:text-neutral-300 dark:hover:bg-neutral-800"
          >
            <CloseIcon className="size-4" />
          </button>
        </div>
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={src} alt={attachment.name} className="block max-h-[calc(100vh-6rem)] max-w-full object-contain" />
      </dialog>
    </>
  );
}
