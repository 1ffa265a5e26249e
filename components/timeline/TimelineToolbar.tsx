"use client";
import { useId, useState } from "react";
import { useChat } from "@/components/stores/chat-store";
import { useCompactionTree } from "@/components/stores/compaction-tree-store";
import { loadedChildren } from "@/components/queries/compaction-children";
import { openAll } from "@/components/stores/reveal-store";
import { Button } from "../ui/Button";
import { jumpToMessage, parseMessageNumber } from "./jump";
import { blocksToExpand, EXPAND_ALL_LIMIT } from "./tree-layout";

/**
 * Above a timeline with compactions (or with earlier pages): "Go to #" opens any message
 * in one step, however deep its block; Expand all opens one more level of what is
 * loaded per press (never the whole history); Collapse all closes every block.
 */
export function TimelineToolbar() {
  const items = useChat((state) => state.items);
  const hasEarlier = useChat((state) => state.hasEarlier);
  const collapseAll = useCompactionTree((state) => state.collapseAll);
  const anyOpen = useCompactionTree((state) => Object.values(state.expanded).some(Boolean));
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [going, setGoing] = useState(false);
  const inputId = useId();
  const errorId = useId();
  const hasBlocks = items.some((item) => item.type === "compaction");
  if (!hasBlocks && !hasEarlier) return null;

  async function go() {
    const seq = parseMessageNumber(value);
    if (seq == null) {
      setError("Type a message number, such as 12.");
      return;
    }
    setError(null);
    setGoing(true);
    const outcome = await jumpToMessage(seq);
    setGoing(false);
    if (!outcome.ok) setError(outcome.message);
  }

  return (
    <div
      data-testid="timeline-toolbar"
      className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 border-b border-neutral-200 px-4 py-1 text-[12px] dark:border-neutral-800"
    >
      <form
        className="flex items-center gap-1.5"
        onSubmit={(event) => {
          event.preventDefault();
          void go();
        }}
      >
        <label htmlFor={inputId} className="text-neutral-600 dark:text-neutral-400">
          Go to #
        </label>
        <input
          id={inputId}
          data-testid="goto-input"
          inputMode="numeric"
          autoComplete="off"
          placeholder="12"
          value={value}
          aria-invalid={error != null}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          className="h-6 w-20 rounded border border-neutral-300 bg-white px-1.5 font-mono text-[12px] dark:border-neutral-700 dark:bg-neutral-900"
        />
        <Button size="xs" type="submit" data-testid="goto-submit" disabled={going}>
          {going ? "Opening…" : "Go"}
        </Button>
      </form>
      {hasBlocks ? (
        <div className="flex items-center gap-1">
          <Button
            size="xs"
            variant="ghost"
            data-testid="expand-all"
            title={`Opens the closed blocks nearest the top, one level per press (at most ${EXPAND_ALL_LIMIT} at a time)`}
            onClick={() => void openAll(blocksToExpand(items, { expanded: useCompactionTree.getState().expanded, childrenOf: loadedChildren }))}
          >
            Expand all
          </Button>
          <Button size="xs" variant="ghost" data-testid="collapse-all" disabled={!anyOpen} onClick={collapseAll}>
            Collapse all
          </Button>
        </div>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" data-testid="goto-error" className="min-w-0 basis-full text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
