"use client";
import { useState } from "react";
import { undoCompactionAction } from "@/app/actions";
import { useChat } from "@/components/stores/chat-store";
import { notify } from "@/components/stores/notices-store";
import { plural } from "@/components/format";
import type { CompactionView } from "@/lib/views";

function confirmText(compaction: CompactionView): string {
  const back =
    compaction.kind === "clearing"
      ? "The cleared tool results go back into the model's view whole"
      : compaction.childCount > 0
        ? `Its ${plural(compaction.childCount, "summary", "summaries")} come back into the model's view, and the messages they do not cover`
        : `Its ${plural(compaction.coveredMessageCount, "message")} come back into the model's view`;
  return `Undo this compaction? ${back}, from your next message on; it stays here, marked undone. If the context is then over the compression threshold (the meter shows it), your next message compresses again.`;
}

/** "Undo this compaction", after an inline confirmation; only on what the model sees now (a top-level block). */
export function UndoCompaction({ compaction }: { compaction: CompactionView }) {
  const busy = useChat((state) => state.busy);
  const [state, setState] = useState<{ step: "idle" | "confirming" | "working"; error: string | null }>({ step: "idle", error: null });

  async function undo() {
    setState({ step: "working", error: null });
    const result = await undoCompactionAction({ compactionId: compaction.id });
    if (!result.ok) {
      setState({ step: "idle", error: result.error.message });
      return;
    }
    await useChat.getState().reloadAfterChange();
    notify("info", `Compaction undone: ${plural(result.data.restoredMessages, "message")} and ${plural(result.data.restoredCompactions, "summary", "summaries")} back in the model's view.`);
  }

  if (state.step === "confirming") {
    return (
      <span
        role="group"
        aria-label="Confirm undoing this compaction"
        className="flex min-w-0 flex-wrap items-center gap-2"
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            setState({ step: "idle", error: null });
          }
        }}
      >
        <span data-testid="undo-compaction-confirm-text" className="min-w-0 text-neutral-700 dark:text-neutral-300">
          {confirmText(compaction)}
        </span>
        <button type="button" autoFocus data-testid="confirm-undo-compaction" onClick={() => void undo()} className="font-medium text-amber-800 hover:underline dark:text-amber-300">
          Undo it
        </button>
        <button type="button" data-testid="cancel-undo-compaction" onClick={() => setState({ step: "idle", error: null })} className="hover:underline">
          Cancel
        </button>
      </span>
    );
  }
  return (
    <>
      <button
        type="button"
        data-testid="undo-compaction"
        disabled={busy || state.step === "working"}
        onClick={() => setState({ step: "confirming", error: null })}
        className="rounded px-1 py-0.5 text-neutral-700 hover:bg-neutral-200/70 disabled:opacity-60 dark:text-neutral-300 dark:hover:bg-neutral-800"
      >
        {state.step === "working" ? "Undoing…" : "Undo this compaction"}
      </button>
      {state.error ? (
        <span role="alert" data-testid="undo-compaction-error" className="text-red-700 dark:text-red-300">
          {state.error}
        </span>
      ) : null}
    </>
  );
}
