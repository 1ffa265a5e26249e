"use client";
// Chips for attached files: in the composer (removable until sent) and on a sent
// message (a download of the original file; an image shows as a thumbnail that opens full size, ImageChip.tsx).
import { useRef } from "react";
import { formatCount } from "@/components/format";
import { formatBytes } from "@/lib/attachments/format";
import type { AttachmentView } from "@/lib/db/attachments";
import { CloseIcon } from "../ui/icons";
import type { DraftFile } from "./use-attachment-draft";
import { ImageChip } from "./ImageChip";
import { useAttachmentUrl } from "./attachment-url";

const CHIP = "inline-flex max-w-full items-center gap-1.5 rounded-md border px-2 py-1 text-[12px]";

function PaperclipIcon() {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className="size-3.5 shrink-0">
      <path d="M13.5 7.5 8 13a3.5 3.5 0 0 1-5-5l6-6a2.3 2.3 0 0 1 3.3 3.3L6.3 11.3a1.2 1.2 0 0 1-1.7-1.7L10 4.2" />
    </svg>
  );
}

const tokens = (count: number) => `${formatCount(count)} tokens`;

/**
 * A chip's words: the file's name, then its figures, then (for a refused file) why. On a
 * narrow screen the figures and the reason move under the name rather than squeeze it, and
 * a name longer than the chip wraps: a phone used to show a refused "empty.txt" as "em…".
 */
function ChipText({ name, figures, children }: { name: string; figures: React.ReactNode; children?: React.ReactNode }) {
  return (
    <span className="flex min-w-0 flex-wrap items-baseline gap-x-1.5">
      <span className="min-w-0 font-medium wrap-anywhere">{name}</span>
      <span className="text-neutral-600 tabular-nums dark:text-neutral-400">{figures}</span>
      {children}
    </span>
  );
}

export function DraftChips({ files, onRemove }: { files: DraftFile[]; onRemove: (key: string) => void }) {
  if (files.length === 0) return null;
  return (
    <ul className="mb-1.5 flex flex-wrap gap-1.5" aria-label="Attached files" data-testid="draft-attachments">
      {files.map((file) => (
        <li
          key={file.key}
          data-testid="draft-attachment"
          data-state={file.state}
          className={`${CHIP} ${file.state === "failed" ? "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950/40 dark:text-red-300" : "border-neutral-300 bg-neutral-50 dark:border-neutral-700 dark:bg-neutral-900"}`}
        >
          <PaperclipIcon />
          <ChipText
            name={file.name}
            figures={`${formatBytes(file.size)}${file.state === "ready" ? ` · ${tokens(file.attachment.tokenCount)}` : file.state === "uploading" ? " · reading…" : ""}`}
          >
            {file.state === "failed" ? (
              <span role="alert" className="min-w-0 basis-full text-[11.5px]" data-testid="attachment-error">
                {file.error}
              </span>
            ) : null}
          </ChipText>
          <button
            type="button"
            data-testid="remove-attachment"
            aria-label={`Remove ${file.name}`}
            onClick={() => onRemove(file.key)}
            className="shrink-0 rounded p-0.5 text-neutral-500 hover:bg-neutral-200 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-sky-500 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
          >
            <CloseIcon className="size-3" />
          </button>
        </li>
      ))}
    </ul>
  );
}

export function SentChips({ attachments }: { attachments: AttachmentView[] }) {
  const fileUrl = useAttachmentUrl();
  return (
    <ul className="mt-1.5 flex flex-wrap gap-1.5" aria-label="Attached files" data-testid="message-attachments">
      {attachments.map((attachment) => (
        <li key={attachment.id} className="max-w-full min-w-0">
          {isImage(attachment) ? (
            <ImageChip
              attachment={attachment}
              className={`${CHIP} flex-col items-start border-neutral-300 bg-white p-1 hover:bg-neutral-50 focus-visible:outline-2 focus-visible:outline-sky-500 dark:border-neutral-700 dark:bg-neutral-900 dark:hover:bg-neutral-800`}
            />
          ) : (
            <a
              data-testid="message-attachment"
              href={fileUrl(attachment.id)}
              download={attachment.name}
              title={`Download ${attachment.name}`}
              className={`${CHIP} border-neutral-300 bg-white hover:bg-neutral-50 focus-visible:outline-2 focus-visible:outline-sky-500 dark:border-neutral-700 dark:bg-neutral-900 dark:hover:bg-neutral-800`}
            >
              <PaperclipIcon />
              <ChipText name={attachment.name} figures={`${formatBytes(attachment.size)} · ${tokens(attachment.tokenCount)}`} />
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

export const isImage = (attachment: Pick<AttachmentView, "mediaType">) => attachment.mediaType.startsWith("image/");

/** The composer's "attach" button: a labelled button that opens the file picker. */
export function AttachButton({ onFiles, disabled }: { onFiles: (files: FileList) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        data-testid="attach-button"
        aria-label="Attach files"
        title="Attach files (text, Markdown, code, CSV, JSON, PDF, images for models that take them) — or drop or paste them"
        disabled={disabled}
        onClick={() => input.current?.click()}
        className="inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-md text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-sky-500 disabled:cursor-not-allowed disabled:text-neutral-400 dark:text-neutral-400 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
      >
        <PaperclipIcon />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attach-input"
        aria-label="Files to attach"
        onChange={(event) => {
          if (event.target.files?.length) onFiles(event.target.files);
          event.target.value = "";
        }}
      />
    </>
  );
}
