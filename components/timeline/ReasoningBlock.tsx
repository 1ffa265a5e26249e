"use client";

/**
 * A reasoning model's thinking, folded above its reply: plain text (it is the model's
 * scratch, not its answer, so it is not rendered as Markdown), never sent to a model again.
 */
export function ReasoningBlock({ text, live = false }: { text: string; live?: boolean }) {
  return (
    <details data-testid="reasoning" className="mb-1.5 text-[12.5px] text-neutral-600 dark:text-neutral-400">
      <summary className="cursor-pointer select-none text-[12px] font-medium text-neutral-500 hover:text-neutral-700 dark:hover:text-neutral-300">
        {live ? "Thinking…" : "Thought process"}
      </summary>
      <p data-testid="reasoning-text" className="mt-1 max-h-80 overflow-y-auto border-l-2 border-neutral-200 pl-3 whitespace-pre-wrap wrap-anywhere dark:border-neutral-800">
        {text}
      </p>
    </details>
  );
}
