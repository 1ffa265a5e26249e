"use client";
import { useEffect } from "react";
import { useChat } from "@/components/stores/chat-store";
import { useActivityData } from "@/components/queries/conversation-data";
import { formatCount, formatDuration, formatTime, strategyLabel, triggerLabel, writtenByUser } from "@/components/format";
import type { AttemptView } from "@/lib/views";
import { BackgroundWork } from "./BackgroundWork";
import { UndoneActivity } from "@/components/timeline/UndoneActivity";

const OUTCOME_STYLES: Record<AttemptView["outcome"], string> = {
  applied: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  failed: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
  skipped: "bg-neutral-200 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300",
};

function AttemptRow({ attempt }: { attempt: AttemptView }) {
  return (
    <li data-testid="attempt" data-outcome={attempt.outcome} className="space-y-1 px-3 py-2.5">
      <div className="flex items-center gap-1.5 text-[11.5px]">
        <span className={`rounded px-1.5 py-px font-semibold ${OUTCOME_STYLES[attempt.outcome]}`}>{attempt.outcome}</span>
        <span className="text-neutral-700 dark:text-neutral-300">{triggerLabel(attempt.trigger)}</span>
        <span className="text-neutral-400">·</span>
        <span className="text-neutral-600 dark:text-neutral-400">{strategyLabel(attempt)}</span>
        {attempt.background ? <span className="text-neutral-400">· background</span> : null}
        <time className="ml-auto text-neutral-500" dateTime={attempt.createdAt}>
          {formatTime(attempt.createdAt)}
        </time>
      </div>
      <p className="text-[12px] leading-snug text-neutral-700 dark:text-neutral-300">{attempt.reason}</p>
      {attempt.error ? <p className="text-[12px] leading-snug text-red-700 dark:text-red-400">{attempt.error}</p> : null}
      <p className="font-mono text-[11px] text-neutral-500 tabular-nums">
        {formatCount(attempt.tokensBefore)} → {attempt.tokensAfter != null ? formatCount(attempt.tokensAfter) : "—"} tokens ·{" "}
        {formatCount(attempt.messagesBefore)} → {attempt.messagesAfter != null ? formatCount(attempt.messagesAfter) : "—"} msgs
        {writtenByUser(attempt) ? "" : ` · ${formatDuration(attempt.durationMs)}`}
        {attempt.model ? ` · ${attempt.model}` : ""}
      </p>
    </li>
  );
}

export function ActivityPanel() {
  const conversationId = useChat((state) => state.conversationId);
  const activity = useActivityData(conversationId, true);
  const attempts = activity.data?.attempts ?? null;
  const attemptsError = activity.error?.message ?? null;
  const backgroundWork = activity.data?.background ?? [];
  const undone = activity.data?.undone ?? [];
  const { refetch } = activity;
  const refresh = () => void refetch();
  // While background work is pending, look again so it turns into its attempt when done.
  const pending = backgroundWork.length > 0;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void refetch(), 3000);
    return () => clearInterval(timer);
  }, [pending, refetch]);
  return (
    <aside
      data-testid="activity-panel"
      aria-label="Compaction activity"
      className="flex w-80 shrink-0 flex-col border-l border-neutral-200 bg-neutral-50/60 dark:border-neutral-800 dark:bg-neutral-900/40"
    >
      <div className="flex h-10 items-center justify-between border-b border-neutral-200 px-3 dark:border-neutral-800">
        <h2 className="text-[12.5px] font-semibold">Compaction activity</h2>
        <button type="button" onClick={refresh} className="text-[11.5px] text-sky-700 hover:underline dark:text-sky-400">
          Refresh
        </button>
      </div>
      <BackgroundWork work={backgroundWork} />
      <UndoneActivity undone={undone} />
      {attemptsError ? (
        <div data-testid="activity-error" role="alert" className="space-y-2 p-3 text-[12px] text-red-800 dark:text-red-300">
          <p>The compaction activity could not be loaded: {attemptsError}</p>
          <button type="button" onClick={refresh} className="font-medium text-sky-700 hover:underline dark:text-sky-400">
            Try again
          </button>
        </div>
      ) : attempts === null ? (
        <p className="p-3 text-[12px] text-neutral-500">Loading…</p>
      ) : attempts.length === 0 ? (
        <p className="p-3 text-[12px] text-neutral-500">No compaction attempts yet.</p>
      ) : (
        <ul className="flex-1 divide-y divide-neutral-200 overflow-y-auto dark:divide-neutral-800">
          {attempts.map((attempt) => (
            <AttemptRow key={attempt.id} attempt={attempt} />
          ))}
        </ul>
      )}
    </aside>
  );
}
