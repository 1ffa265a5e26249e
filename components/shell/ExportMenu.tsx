"use client";
import { HeaderLabel, PHONE_MENU_ROW } from "../chat/HeaderLabel";
import { DownloadIcon } from "../ui/icons";
import { usePopover } from "./use-dismiss";

const ITEM = "block rounded px-2 py-1.5 text-[12.5px] hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-sky-500 dark:hover:bg-neutral-800";

/** Downloads of this conversation: the JSON export (re-importable) or Markdown. */
export function ExportMenu({ conversationId }: { conversationId: string }) {
  const { open, close, ref, toggleProps } = usePopover();
  const href = (format: string) => `/api/conversations/${conversationId}/export?format=${format}`;
  return (
    <div ref={ref} className="relative">
      <button
        {...toggleProps}
        data-testid="export-toggle"
        aria-haspopup="true"
        title="Export this conversation"
        className={`inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-[12.5px] font-medium text-neutral-600 hover:bg-neutral-100 dark:text-neutral-400 dark:hover:bg-neutral-800 ${PHONE_MENU_ROW}`}
      >
        <DownloadIcon className="size-3.5" /> <HeaderLabel>Export</HeaderLabel>
      </button>
      {open ? (
        <div className="absolute right-0 z-30 mt-1 w-48 rounded-md border border-neutral-200 bg-white p-1 shadow-lg dark:border-neutral-700 dark:bg-neutral-900">
          <a href={href("json")} download data-testid="export-json" className={ITEM} onClick={close}>
            JSON (re-importable)
          </a>
          <a href={href("markdown")} download data-testid="export-markdown" className={ITEM} onClick={close}>
            Markdown
          </a>
        </div>
      ) : null}
    </div>
  );
}
