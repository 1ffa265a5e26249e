"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { conversationFromSummaryAction } from "@/app/actions";
import { useConversationList } from "@/components/stores/conversation-list-store";

/** "New conversation from this summary": starts one whose first context is this compaction's text. */
export function ContinueFromSummary({ compactionId }: { compactionId: string }) {
  const router = useRouter();
  const refresh = useConversationList((state) => state.refresh);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  async function start() {
    setState({ busy: true, error: null });
    const result = await conversationFromSummaryAction({ compactionId });
    if (!result.ok) {
      setState({ busy: false, error: result.error.message });
      return;
    }
    await refresh();
    router.push(`/c/${result.data.id}`);
  }

  return (
    <>
      <button
        type="button"
        data-testid="continue-from-summary"
        disabled={state.busy}
        onClick={() => void start()}
        className="rounded px-1 py-0.5 text-sky-700 hover:bg-neutral-200/70 disabled:opacity-60 dark:text-sky-400 dark:hover:bg-neutral-800"
      >
        {state.busy ? "Starting…" : "New conversation from this summary"}
      </button>
      {state.error ? (
        <span role="alert" data-testid="continue-from-summary-error" className="text-red-700 dark:text-red-300">
          {state.error}
        </span>
      ) : null}
    </>
  );
}
