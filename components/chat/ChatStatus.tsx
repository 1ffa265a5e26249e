"use client";
import { useChat } from "@/components/stores/chat-store";
import { useNotices } from "@/components/stores/notices-store";
import { plural } from "@/components/format";
import { CloseIcon } from "../ui/icons";

const TONES = {
  error: "border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200",
  warning: "border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-200",
  info: "border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900 dark:bg-sky-950/60 dark:text-sky-200",
} as const;

/** Non-blocking feedback above the composer: compression in progress and notices. */
export function ChatStatus() {
  const compressing = useChat((state) => state.compressing);
  const notices = useNotices((state) => state.notices);
  const dismiss = useNotices((state) => state.dismiss);
  if (!compressing && notices.length === 0) return null;
  return (
    <div className="space-y-1.5 px-4 pb-2" aria-live="polite">
      {compressing ? (
        <p
          data-testid="compression-status"
          role="status"
          className="flex items-center gap-2 text-[12px] font-medium text-violet-700 dark:text-violet-300"
        >
          <span className="animate-strata-pulse size-1.5 rounded-full bg-violet-500" />
          {compressing.messageCount ? `Compressing ${plural(compressing.messageCount, "message")}…` : "Compressing…"}
        </p>
      ) : null}
      {notices.map((notice) => (
        <div
          key={notice.id}
          data-testid="notice"
          data-tone={notice.tone}
          role={notice.tone === "error" ? "alert" : "status"}
          className={`flex items-start gap-2 rounded-md border px-2.5 py-1.5 text-[12.5px] ${TONES[notice.tone]}`}
        >
          <p className="flex-1 leading-snug">{notice.text}</p>
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(notice.id)} className="rounded p-0.5 opacity-70 hover:opacity-100">
            <CloseIcon className="size-3" />
          </button>
        </div>
      ))}
    </div>
  );
}
