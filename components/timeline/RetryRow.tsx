"use client";
import { useChat } from "@/components/stores/chat-store";
import { Button } from "../ui/Button";

/**
 * After a model error (or an unanswered last message): try the reply again. A failure is
 * told once: by the failed reply's bubble when it shows one (`replyShowsError`), by this
 * row when Retry can fix it (after a reload, from the reason stored with the message:
 * `noted`), by the notices above the composer when it cannot.
 */
export function RetryRow({ replyShowsError, noted }: { replyShowsError: boolean; noted: string | null }) {
  const lastError = useChat((state) => state.lastError);
  const retry = useChat((state) => state.retry);
  const busy = useChat((state) => state.busy);
  const failure = lastError?.retryable ? lastError.message : noted;
  const text = replyShowsError ? "The reply above stopped with an error." : failure ? `The model failed: ${failure}` : "This message has no reply yet.";
  return (
    <div data-testid="retry-row" className="flex items-center gap-3 rounded-lg border border-red-200 bg-red-50/60 px-3 py-2 text-[12.5px] dark:border-red-900/60 dark:bg-red-950/30">
      <p className="flex-1 text-red-800 dark:text-red-200">{text}</p>
      <Button data-testid="retry-button" variant="secondary" disabled={busy} onClick={() => void retry()}>
        Retry
      </Button>
    </div>
  );
}
