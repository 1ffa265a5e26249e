"use client";

/** One download of every conversation of the user's (a JSON array of exports, re-importable as a whole). */
export function ExportAllLink() {
  return (
    <a
      href="/api/conversations/export"
      download
      data-testid="export-all"
      className="flex items-center gap-2 rounded-md px-2 py-1.5 text-[12.5px] text-neutral-600 hover:bg-neutral-200/60 focus-visible:outline-2 focus-visible:outline-sky-500 dark:text-neutral-400 dark:hover:bg-neutral-800"
    >
      Export all conversations (JSON)
    </a>
  );
}
