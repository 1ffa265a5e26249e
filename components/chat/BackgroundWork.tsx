import { formatTime } from "@/components/format";
import type { BackgroundWorkView } from "@/lib/views";

function describe(work: BackgroundWorkView): string {
  const tries = work.attempt > 1 ? ` (attempt ${work.attempt}${work.maxAttempts ? ` of ${work.maxAttempts}` : ""})` : "";
  switch (work.state) {
    case "queued":
      return `Background compaction queued since ${formatTime(work.since)}${tries}`;
    case "running":
      return `Background compaction running since ${formatTime(work.since)}${tries}`;
    case "retrying":
      return `Background compaction failed; retry ${work.attempt}${work.maxAttempts ? ` of ${work.maxAttempts}` : ""}${
        work.nextRetryAt ? ` at ${formatTime(work.nextRetryAt)}` : ""
      }`;
  }
}

/** Compaction queued or running for this conversation, at the top of the Activity panel. */
export function BackgroundWork({ work }: { work: BackgroundWorkView[] }) {
  if (work.length === 0) return null;
  return (
    <ul data-testid="background-work" className="border-b border-neutral-200 bg-sky-50/70 dark:border-neutral-800 dark:bg-sky-950/30">
      {work.map((item) => (
        <li
          key={`${item.where}-${item.state}-${item.since}`}
          data-testid="background-job"
          data-state={item.state}
          className="px-3 py-2 text-[12px] text-sky-900 dark:text-sky-200"
        >
          {describe(item)}
          {item.where === "in-process" ? <span className="text-neutral-500"> · this server</span> : null}
        </li>
      ))}
    </ul>
  );
}
